// Our own data set, written for this project, in the HabitServer file format and at the scale of the original
// (41 users, 7 categories of which "Rest" has no habits, 19 habits). Kept as the JSON files' text so the binary
// needs no resource bundle and the data goes through the same loader as `--data-dir`.

/// The built-in data files, by file name, exactly as they would sit in a `--data-dir` folder.
enum BuiltInData {
    /// `file name → contents` for `users.json`, `habits.json`, `categories.json` and `activeUser.json`.
    static let files: [String: String] = [
        "users.json": users,
        "habits.json": habits,
        "categories.json": categories,
        "activeUser.json": activeUser,
    ]

    /// `categories.json`: seven categories; "Rest" deliberately has no habits.
    static let categories = #"""
        [
            {
                "name": "Movement",
                "color": {
                    "h": 0.33,
                    "s": 0.7,
                    "b": 0.8
                }
            },
            {
                "name": "Mind",
                "color": {
                    "h": 0.78,
                    "s": 0.45,
                    "b": 0.85
                }
            },
            {
                "name": "Nourishment",
                "color": {
                    "h": 0.08,
                    "s": 0.7,
                    "b": 0.9
                }
            },
            {
                "name": "Rest",
                "color": {
                    "h": 0.62,
                    "s": 0.6,
                    "b": 0.35
                }
            },
            {
                "name": "Learning",
                "color": {
                    "h": 0.13,
                    "s": 0.55,
                    "b": 0.85
                }
            },
            {
                "name": "Community",
                "color": {
                    "h": 0.95,
                    "s": 0.5,
                    "b": 0.85
                }
            },
            {
                "name": "Making",
                "color": {
                    "h": 0.52,
                    "s": 0.55,
                    "b": 0.8
                }
            }
        ]
        """#

    /// `habits.json`: names include "/", "&" and non-ASCII letters on purpose, since the dashboard must route them.
    static let habits = #"""
        [
            {
                "name": "Push-ups/Sit-ups",
                "categoryName": "Movement",
                "info": "A quick set of each wherever you are: no equipment, no excuses."
            },
            {
                "name": "Morning run",
                "categoryName": "Movement",
                "info": "Any distance counts. The hardest part is the front door."
            },
            {
                "name": "Café walk",
                "categoryName": "Movement",
                "info": "Walk to a café instead of driving, and enjoy the drink at the end."
            },
            {
                "name": "Tai chi — Qìgōng",
                "categoryName": "Movement",
                "info": "Slow, flowing movements that train balance and calm at the same time."
            },
            {
                "name": "Read & Reflect",
                "categoryName": "Mind",
                "info": "Read a few pages, then spend a minute on what stayed with you."
            },
            {
                "name": "Breathing pause",
                "categoryName": "Mind",
                "info": "Stop for ten slow breaths before the next thing on your list."
            },
            {
                "name": "Gratitude list",
                "categoryName": "Mind",
                "info": "Write down three things that went well today, however small."
            },
            {
                "name": "Cooked at home",
                "categoryName": "Nourishment",
                "info": "A meal made from ingredients, by you, at home."
            },
            {
                "name": "Extra vegetables",
                "categoryName": "Nourishment",
                "info": "Add one more portion of vegetables than you planned."
            },
            {
                "name": "Herbal tea",
                "categoryName": "Nourishment",
                "info": "Swap one coffee or soda for a cup of herbal tea."
            },
            {
                "name": "Language lesson",
                "categoryName": "Learning",
                "info": "Fifteen minutes with a new language: an app, a book or a patient friend."
            },
            {
                "name": "Online course",
                "categoryName": "Learning",
                "info": "One lecture or exercise from a course you signed up for."
            },
            {
                "name": "Museum visit",
                "categoryName": "Learning",
                "info": "See something made or found by people long before you."
            },
            {
                "name": "Helped a neighbour",
                "categoryName": "Community",
                "info": "Carry the shopping, water the plants, lend the ladder."
            },
            {
                "name": "Called a friend",
                "categoryName": "Community",
                "info": "A real conversation with someone you have not spoken to in a while."
            },
            {
                "name": "Litter pick-up",
                "categoryName": "Community",
                "info": "Fill one bag with litter from a street, park or beach near you."
            },
            {
                "name": "Sketching",
                "categoryName": "Making",
                "info": "Draw what is in front of you for ten minutes. Nobody has to see it."
            },
            {
                "name": "Played an instrument",
                "categoryName": "Making",
                "info": "Practise a piece, a scale or just make some noise on purpose."
            },
            {
                "name": "Wrote a page",
                "categoryName": "Making",
                "info": "One page of anything: a diary, a story, a letter you may never send."
            }
        ]
        """#

    /// `activeUser.json`: the user who logs habits from the dashboard.
    static let activeUser = #"""
        {
            "id": "activeUser",
            "name": "Active User"
        }
        """#
}
