// Our own data set, written for this project, in the HabitServer file format and at the scale of the original
// (41 users, 7 categories of which "Rest" has no habits, 19 habits). Kept as the JSON files' text so the binary
// needs no resource bundle and the data goes through the same loader as `--data-dir`.

extension BuiltInData {
    /// `users.json`: 41 invented people, `user0` … `user40`.
    static let users = #"""
        [
            {
                "id": "user0",
                "name": "Abena Mensah",
                "bio": "Nurse on night shifts who runs at sunrise. Collects postcards from every town she visits.",
                "color": {
                    "h": 0.07,
                    "s": 0.4617,
                    "b": 0.868
                }
            },
            {
                "id": "user1",
                "name": "Bastian Vogel",
                "bio": "Carpenter and amateur astronomer. Believes most problems look smaller after a long walk.",
                "color": {
                    "h": 0.688,
                    "s": 0.5286,
                    "b": 0.9405
                }
            },
            {
                "id": "user2",
                "name": "Carmen Ruiz",
                "bio": "Teaches chemistry to teenagers. Trying to read one poem a day, even on busy days.",
                "color": {
                    "h": 0.3061,
                    "s": 0.6474,
                    "b": 0.8798
                }
            },
            {
                "id": "user3",
                "name": "Dmitri Sokolov",
                "bio": "Chess club organiser. Swims in cold lakes and tells everyone about it.",
                "color": {
                    "h": 0.9241,
                    "s": 0.865,
                    "b": 0.7486
                }
            },
            {
                "id": "user4",
                "name": "Eun-ji Park",
                "bio": "Product designer, plant parent and reluctant early riser.",
                "color": {
                    "h": 0.5421,
                    "s": 0.4633,
                    "b": 0.8206
                }
            },
            {
                "id": "user5",
                "name": "Farah Haddad",
                "bio": "Bakes bread on Sundays and shares it with the whole stairwell.",
                "color": {
                    "h": 0.1602,
                    "s": 0.4766,
                    "b": 0.7945
                }
            },
            {
                "id": "user6",
                "name": "Gideon Okafor",
                "bio": "Bus driver who knows every shortcut in the city. Learning the trumpet, slowly.",
                "color": {
                    "h": 0.7782,
                    "s": 0.7077,
                    "b": 0.8965
                }
            },
            {
                "id": "user7",
                "name": "Hana Kobayashi",
                "bio": "Illustrator. Sketches strangers on the train, with permission.",
                "color": {
                    "h": 0.3962,
                    "s": 0.7707,
                    "b": 0.8063
                }
            },
            {
                "id": "user8",
                "name": "Ibrahim Diallo",
                "bio": "Coaches a junior football team. Firm believer in stretching before and after.",
                "color": {
                    "h": 0.0143,
                    "s": 0.4523,
                    "b": 0.841
                }
            },
            {
                "id": "user9",
                "name": "Jonas Lindqvist",
                "bio": "Software tester by day, folk fiddler by night.",
                "color": {
                    "h": 0.6323,
                    "s": 0.8418,
                    "b": 0.9321
                }
            },
            {
                "id": "user10",
                "name": "Kalani Akana",
                "bio": "Marine biology student. Happiest on a paddleboard.",
                "color": {
                    "h": 0.2503,
                    "s": 0.7544,
                    "b": 0.7015
                }
            },
            {
                "id": "user11",
                "name": "Léa Fontaine",
                "bio": "Librarian with a soft spot for detective novels and strong coffee.",
                "color": {
                    "h": 0.8684,
                    "s": 0.696,
                    "b": 0.7978
                }
            },
            {
                "id": "user12",
                "name": "Mateo Silva",
                "bio": "Cyclist, cook and keeper of an enormous spice cabinet.",
                "color": {
                    "h": 0.4864,
                    "s": 0.4614,
                    "b": 0.8092
                }
            },
            {
                "id": "user13",
                "name": "Noor Rahman",
                "bio": "Civil engineer planning greener streets. Volunteers at the food bank on Saturdays.",
                "color": {
                    "h": 0.1044,
                    "s": 0.9451,
                    "b": 0.7002
                }
            },
            {
                "id": "user14",
                "name": "Oskar Nowak",
                "bio": "Retired postman. Walks ten thousand steps a day and counts every one.",
                "color": {
                    "h": 0.7225,
                    "s": 0.6956,
                    "b": 0.8374
                }
            },
            {
                "id": "user15",
                "name": "Priya Nair",
                "bio": "Physiotherapist. Will ask you about your posture.",
                "color": {
                    "h": 0.3405,
                    "s": 0.7348,
                    "b": 0.8505
                }
            },
            {
                "id": "user16",
                "name": "Quentin Moreau",
                "bio": "Jazz pianist who recently discovered the joy of vegetables.",
                "color": {
                    "h": 0.9585,
                    "s": 0.8434,
                    "b": 0.8463
                }
            },
            {
                "id": "user17",
                "name": "Rosa Delgado",
                "bio": "Community garden coordinator. Tomatoes are her love language.",
                "color": {
                    "h": 0.5766,
                    "s": 0.8166,
                    "b": 0.8185
                }
            },
            {
                "id": "user18",
                "name": "Sam Whitfield",
                "bio": "Paramedic and weekend climber. Keeps a gratitude list on the fridge.",
                "color": {
                    "h": 0.1946,
                    "s": 0.6669,
                    "b": 0.8497
                }
            },
            {
                "id": "user19",
                "name": "Sam Castellano",
                "bio": "Accountant learning Italian to talk with his grandmother.",
                "color": {
                    "h": 0.8126,
                    "s": 0.4687,
                    "b": 0.9372
                }
            },
            {
                "id": "user20",
                "name": "Tamsin Hale",
                "bio": "Potter. Her mugs are slightly uneven on purpose.",
                "color": {
                    "h": 0.4307,
                    "s": 0.9073,
                    "b": 0.8262
                }
            },
            {
                "id": "user21",
                "name": "Umar Farouk",
                "bio": "Taxi dispatcher who meditates between calls.",
                "color": {
                    "h": 0.0487,
                    "s": 0.5294,
                    "b": 0.8079
                }
            },
            {
                "id": "user22",
                "name": "Valentina Greco",
                "bio": "Sings in an opera chorus. Practises scales in the shower, loudly.",
                "color": {
                    "h": 0.6667,
                    "s": 0.7351,
                    "b": 0.8921
                }
            },
            {
                "id": "user23",
                "name": "Wen Li",
                "bio": "Data analyst. Measures everything, including how long her tea steeps.",
                "color": {
                    "h": 0.2848,
                    "s": 0.8185,
                    "b": 0.8828
                }
            },
            {
                "id": "user24",
                "name": "Xavier Dubois",
                "bio": "Firefighter who volunteers teaching first aid to school classes.",
                "color": {
                    "h": 0.9028,
                    "s": 0.5902,
                    "b": 0.8819
                }
            },
            {
                "id": "user25",
                "name": "Yara Costa",
                "bio": "Sea swimmer all year round and lifeboat crew volunteer.",
                "color": {
                    "h": 0.5208,
                    "s": 0.7864,
                    "b": 0.9296
                }
            },
            {
                "id": "user26",
                "name": "Zoë Adler",
                "bio": "Architecture student sketching bridges in every city she visits.",
                "color": {
                    "h": 0.1389,
                    "s": 0.5862,
                    "b": 0.7826
                }
            },
            {
                "id": "user27",
                "name": "Aarav Mehta",
                "bio": "High-school debate captain and habitual list maker.",
                "color": {
                    "h": 0.7569,
                    "s": 0.5175,
                    "b": 0.7047
                }
            },
            {
                "id": "user28",
                "name": "Brigid O'Connell",
                "bio": "Midwife. Gardens by moonlight when the shifts are strange.",
                "color": {
                    "h": 0.375,
                    "s": 0.6759,
                    "b": 0.8695
                }
            },
            {
                "id": "user29",
                "name": "Chidi Eze",
                "bio": "Economist who runs long distances to think.",
                "color": {
                    "h": 0.993,
                    "s": 0.6098,
                    "b": 0.7454
                }
            },
            {
                "id": "user30",
                "name": "Dalia Kaplan",
                "bio": "Translator juggling four languages and two cats.",
                "color": {
                    "h": 0.611,
                    "s": 0.555,
                    "b": 0.756
                }
            },
            {
                "id": "user31",
                "name": "Emil Johansson",
                "bio": "Ferry captain. Reads a chapter on every crossing.",
                "color": {
                    "h": 0.2291,
                    "s": 0.6014,
                    "b": 0.7307
                }
            },
            {
                "id": "user32",
                "name": "Fatima Zahra",
                "bio": "Pharmacist and calligraphy enthusiast.",
                "color": {
                    "h": 0.8471,
                    "s": 0.8709,
                    "b": 0.884
                }
            },
            {
                "id": "user33",
                "name": "Goran Petrović",
                "bio": "Mechanic who restores old radios and listens to lectures while he works.",
                "color": {
                    "h": 0.4651,
                    "s": 0.5539,
                    "b": 0.7017
                }
            },
            {
                "id": "user34",
                "name": "Hiroshi Tanaka",
                "bio": "Retired teacher doing tai chi in the park every morning.",
                "color": {
                    "h": 0.0832,
                    "s": 0.5393,
                    "b": 0.9445
                }
            },
            {
                "id": "user35",
                "name": "Ingrid Solberg",
                "bio": "Cross-country skier in winter, kayaker in summer, knitter all year.",
                "color": {
                    "h": 0.7012,
                    "s": 0.5622,
                    "b": 0.8589
                }
            },
            {
                "id": "user36",
                "name": "Javier Morales",
                "bio": "Chef who finally learned to cook for himself too.",
                "color": {
                    "h": 0.3192,
                    "s": 0.7028,
                    "b": 0.8731
                }
            },
            {
                "id": "user37",
                "name": "Keira Walsh",
                "bio": "Podcast producer trying to spend more time away from screens.",
                "color": {
                    "h": 0.9373,
                    "s": 0.6094,
                    "b": 0.9015
                }
            },
            {
                "id": "user38",
                "name": "Luca Romano",
                "bio": "Bike messenger and street photographer.",
                "color": {
                    "h": 0.5553,
                    "s": 0.751,
                    "b": 0.7466
                }
            },
            {
                "id": "user39",
                "name": "Maya Goldberg",
                "bio": "Social worker. Calls a friend every evening on the walk home.",
                "color": {
                    "h": 0.1733,
                    "s": 0.4627,
                    "b": 0.8217
                }
            },
            {
                "id": "user40",
                "name": "Nikolai Ivanov",
                "bio": "Violin maker. Patient with wood, less patient with traffic.",
                "color": {
                    "h": 0.7914,
                    "s": 0.6494,
                    "b": 0.9484
                }
            }
        ]
        """#
}
