import HabitsAPI

/// The words `GeneratedData` makes people and habits of: our own lists, varied in origin and spelling (accents,
/// apostrophes, hyphens), so a made-up network reads like a real one.
extension GeneratedData {
    static let firstNames = [
        "Abena", "Aiko", "Alejandro", "Amara", "Anders", "Anouk", "Arjun", "Astrid", "Bastian", "Beatriz", "Bilal",
        "Camille", "Chidi", "Chloé", "Dalia", "Dmitri", "Elif", "Emeka", "Esme", "Farah", "Felipe", "Freya",
        "Gabriel", "Greta", "Hana", "Hugo", "Ines", "Isak", "Jamal", "Jia", "Joaquín", "Kaito", "Kalani", "Kofi",
        "Lars", "Léa", "Leilani", "Lucía", "Mads", "Malak", "Mateo", "Mei", "Mikael", "Nadia", "Naveen", "Nia",
        "Oskar", "Priya", "Rafael", "Rania", "Renée", "Rohan", "Saanvi", "Santiago", "Sione", "Siobhan", "Soren",
        "Tamar", "Tariq", "Thandiwe", "Tomás", "Uma", "Valentina", "Wanjiru", "Xavier", "Yara", "Yusuf", "Zainab",
        "Zoë", "Zoltan",
    ]

    static let lastNames = [
        "Abara", "Adler", "Andersen", "Baptiste", "Bianchi", "Castillo", "Chen", "Costa", "D'Angelo", "de Vries",
        "Dubois", "Eze", "Fernández", "Fischer", "Fontaine", "Gallagher", "García", "Haddad", "Hansen", "Ibrahim",
        "Ivanova", "Jansen", "Kaur", "Keller", "Kim", "Kowalski", "Laine", "Larsen", "Lindqvist", "López", "Mensah",
        "Moreau", "Müller", "Nakamura", "Nguyen", "Novak", "O'Connell", "Okafor", "Olsen", "Ortega", "Owusu",
        "Papadopoulos", "Patel", "Pereira", "Popescu", "Quispe", "Rahman", "Reyes", "Rossi", "Saito", "Santos",
        "Schmidt", "Silva", "Singh", "Smith-Jones", "Sørensen", "Suzuki", "Tanaka", "Torres", "Tran", "Van der Berg",
        "Vogel", "Wagner", "Walker", "Wang", "Weiss", "Yilmaz", "Zhang", "Zielinski", "Żukowski",
    ]

    static let occupations = [
        "Nurse", "Carpenter", "Teacher", "Bus driver", "Baker", "Software tester", "Midwife", "Gardener", "Librarian",
        "Chemist", "Translator", "Electrician", "Student", "Retired pilot", "Barista", "Architect", "Vet",
    ]

    static let hobbies = [
        "runs at sunrise", "collects postcards", "keeps bees on the roof", "sings in a choir",
        "restores old bicycles", "is learning the cello", "swims in the lake all year", "bakes bread on Sundays",
        "plays chess in the park", "grows tomatoes on a balcony", "knits for the whole family",
        "walks the neighbour's dog", "writes letters by hand", "climbs at the local gym",
    ]

    /// (activity, index in `BuiltInCategories.all`, tip). "Rest" (index 3) gets none, as in the built-in data.
    static let activities: [(String, Int, String)] = [
        ("Walk", 0, "Any walk counts, around the block or across town."),
        ("Yoga", 0, "A few poses and slow breaths."),
        ("Run", 0, "Any distance counts. The hardest part is the front door."),
        ("Cycling", 0, "To work, to the shops or just around."),
        ("Swim", 0, "A few lengths, or just a float."),
        ("Stretching", 0, "Loosen up before the day catches you."),
        ("Push-ups/Sit-ups", 0, "A quick set of each wherever you are."),
        ("Dance", 0, "One song, the whole body."),
        ("Meditation", 1, "Sit still and notice your breath."),
        ("Journaling", 1, "A few lines about the day."),
        ("Gratitude list", 1, "Three things that went well."),
        ("Read & Reflect", 1, "Read a few pages, then think about them."),
        ("Breathing pause", 1, "Ten slow breaths before the next thing."),
        ("Cooked at home", 2, "A meal made from ingredients, by you."),
        ("Extra vegetables", 2, "One more portion than you planned."),
        ("Herbal tea", 2, "Swap one coffee for a cup of tea."),
        ("Fruit snack", 2, "An apple instead of a biscuit."),
        ("Water bottle", 2, "Refill it three times a day."),
        ("Language lesson", 4, "Fifteen minutes with a new language."),
        ("Online course", 4, "One lecture or exercise."),
        ("Museum visit", 4, "See something made long before you."),
        ("Podcast", 4, "An episode that teaches you something."),
        ("Helped a neighbour", 5, "Carry the shopping, lend the ladder."),
        ("Called a friend", 5, "A real conversation, not a message."),
        ("Litter pick-up", 5, "Fill one bag near where you live."),
        ("Volunteering", 5, "An hour for someone else."),
        ("Sketching", 6, "Draw what is in front of you."),
        ("Played an instrument", 6, "A piece, a scale or some noise."),
        ("Wrote a page", 6, "One page of anything."),
        ("Tea & <cake> club", 6, "Bake something and share it (the name keeps the escaping honest)."),
    ]

    /// What makes an activity a habit of its own: "Morning walk", "With a friend: yoga" reads oddly, so all are
    /// adjectives or times.
    static let manners = [
        "Morning", "Evening", "Weekend", "Lunchtime", "Daily", "Quick", "Long", "Gentle", "Outdoor", "Indoor",
        "Early", "Late", "Sunday", "Midweek", "Family", "Solo", "Group", "Mindful", "Rainy-day", "Winter",
        "Summer", "Spring", "Autumn", "Night", "Brisk", "Slow", "Short", "Extra", "Weekday", "Holiday", "Office",
        "Home", "Park", "Beach", "City", "Garden", "Kitchen", "Rooftop", "Lakeside", "Forest", "Mountain",
        "Riverside", "Balcony", "Village", "Seaside", "Hilltop", "Campus", "Harbour", "Meadow", "Courtyard",
        "Backyard", "Library", "Studio", "Workshop", "Market", "Station", "Bridge", "Island", "Valley", "Desert",
        "Snowy", "Sunny", "Windy", "Misty", "Starlit", "Dawn", "Dusk", "Midnight", "Saturday", "Friday",
    ]
}

/// The built-in data's seven categories (`BuiltInData.categories`), for data sets made up in code.
enum BuiltInCategories {
    /// Movement, Mind, Nourishment, Rest (no habits), Learning, Community, Making.
    static let all = [
        Category(name: "Movement", color: Color(hue: 0.33, saturation: 0.7, brightness: 0.8)),
        Category(name: "Mind", color: Color(hue: 0.78, saturation: 0.45, brightness: 0.85)),
        Category(name: "Nourishment", color: Color(hue: 0.08, saturation: 0.7, brightness: 0.9)),
        Category(name: "Rest", color: Color(hue: 0.62, saturation: 0.6, brightness: 0.35)),
        Category(name: "Learning", color: Color(hue: 0.13, saturation: 0.55, brightness: 0.85)),
        Category(name: "Community", color: Color(hue: 0.95, saturation: 0.5, brightness: 0.85)),
        Category(name: "Making", color: Color(hue: 0.52, saturation: 0.55, brightness: 0.8)),
    ]
}
