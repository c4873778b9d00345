"""The large-upstream case of issue 23 (`scripts/abuse.sh --only large`), as data for scripts/abuse.py's `large` flood:
a valid but large upstream, 45 000 people made up by `habits-api --users 45000 --seed 7` (about a 14 MB
`/combinedStats`), while four clients ask People for `?q=` spellings (each a new render key: a prefix of a name, cased
and accented differently, with a sort) and abuse.py's probe loads Home every 0.5 s and holds a live poll.

Before paging and the search index (issue 21 point 4, issue 23 point 6), `/people` was 28.6 MB of HTML taking 0.5 s
to render, and this flood took the probe's Home to 4.3 s median and RSS to 754 MB. Now each request is bounded: the
search asks the index built once per snapshot (`NameSearchIndex`) and renders one page of at most 100 cards.

abuse.py runs it like its other floods (`run_one`), against a habits-api and a dashboard of its own (`run_large`).
"""

PEOPLE = 45_000
# Spellings a person might type: parts of the generator's names, in other cases and with or without accents.
FRAGMENTS = ["a", "an", "ana", "zo", "zoë", "ZOE", "lé", "lea", "mü", "mu", "o'c", "de v", "van der", "sø", "ka",
             "chen", "KIM", "tr", "ñ", "quí", "ya", "el", "ri", "sa", "to"]


def spelling(rng):
    """A `?q=` (and sometimes a sort and a page) no other client asked for a moment ago."""
    word = rng.choice(FRAGMENTS)
    if rng.random() < 0.5:
        word += rng.choice("abcdefghijklmnopqrstuvwxyz")
    if rng.random() < 0.3:
        word = word.upper()
    query = "q=" + "".join(c if c.isalnum() and c.isascii() else "%" + "%".join(f"{b:02X}" for b in c.encode())
                           for c in word)
    if rng.random() < 0.3:
        query += "&sort=" + rng.choice(["activity", "leading"])
    if rng.random() < 0.2:
        query += "&page=2"
    return "/people?" + query
