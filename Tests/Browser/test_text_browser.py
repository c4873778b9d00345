"""The pages as a text browser reads them, without CSS or JavaScript (issue 47 point 5): `lynx -dump` of Log Habit,
a habit page and the header every page shares.

lynx is installed by scripts/test.sh (Debian's `lynx`); under CI a missing lynx is a failure there, before this runs.
"""

import re
import shutil
import subprocess
import urllib.parse

import pytest


def dump(url):
    """What lynx shows for `url`, as plain text without the list of links."""
    lynx = shutil.which("lynx")
    if lynx is None:
        pytest.skip("lynx is not installed (scripts/test.sh installs it)")
    result = subprocess.run(
        [lynx, "-dump", "-nolist", "-width=200", "-display_charset=utf-8", url],
        capture_output=True, text=True, timeout=60, check=True,
    )
    return result.stdout


def test_log_buttons_read_as_the_habit_then_your_standing(dashboard):
    text = dump(dashboard.url + "/log")
    buttons = re.findall(r"\(BUTTON\) Log (.+)", text)
    habits = dashboard.api("/habits")
    assert len(buttons) == len(habits), text
    for button in buttons:
        name, separator, standing = button.partition(". ")
        assert separator, f"the name runs into the standing: {button!r}"
        assert name in habits, button
        assert standing == "Not logged yet" or re.fullmatch(r"You: \d+, \d+(st|nd|rd|th)", standing), button


def test_the_brand_link_and_the_habits_tab_say_different_things(dashboard):
    lines = [line.strip() for line in dump(dashboard.url + "/").splitlines()]
    assert "Skip to content" in lines, "the skip link runs into the next link"
    assert "Habits Dashboard" in lines, "the brand link names the dashboard, not only 'Habits'"
    assert "* Habits" in lines, "the Habits tab"


def test_a_habit_page_has_one_list_of_counts_under_one_heading_and_a_headed_chart(dashboard):
    name = sorted(dashboard.api("/habits"))[0]
    text = dump(dashboard.url + "/habits/" + urllib.parse.quote(name, safe=""))
    lines = [line.strip() for line in text.splitlines()]
    assert "Count over time" in lines, text
    heading = lines.index("Who logged it")
    groups = [line for line in lines[heading:] if re.match(r"\d+\. (Leaders · )?\d+ times?$", line)]
    assert groups and groups[0].startswith("1. Leaders · "), text
    # One numbered list: the groups are numbered 1, 2, 3… in order, under the one heading.
    assert [int(line.split(".")[0]) for line in groups] == list(range(1, len(groups) + 1))


def test_the_interface_spells_favorite_one_way(dashboard):
    for path in ["/", "/habits", "/log", "/people"]:
        text = dump(dashboard.url + path)
        assert "favourite" not in text.lower(), path
