"""Development chats for the memory evaluation, written from templates by a seeded generator.

Each chat is several people talking over about ten weeks in dated sessions (18 to 20 of
them, every two to six days, at varied hours), with questions whose answering messages are
known: "when" questions (a new job, an adoption, a concert), lists spread over sessions
(cities visited, books read), facts that change (a launch date moved twice, a move to another
town), single-hop facts (a sibling's job, an allergy) and open-domain ones answered by what a
person says about themselves ("would Ana enjoy a steakhouse dinner?"). Between them runs small
talk, and messages that name the same things without answering (the interview before the
job, the vet visit after the adoption).

The chats are templated, not natural: the phrasing varies within each template's variants
and the schedule is random, but a real chat's range of topics and styles is wider. They are
for developing and checking the policy; held-out chats judge it.

Templates live in ``benchmarks/data/chats/templates/<language>.toml``: ``months`` and
``date_format`` (answers' dates), ``[[chats]]`` (name, people, first session's time, seed),
``[pools]`` (slot values: tables whose keys are slots), ``[filler]`` (opening, closing,
reactions, messages) and ``[kinds.<kind>]``: ``pools`` (slots shared by the fact's messages),
``step_pools`` (slots of each step), ``steps`` (how many sessions state it, default 1),
``plant`` or ``plant_1`` ... ``plant_<steps>`` (what the person says), ``reply`` (another's
reaction), ``before`` / ``after`` (mentions in earlier / later sessions that answer nothing),
``questions`` (``category``; ``answers``: ``plant``, ``all``, ``one`` (a step drawn, its slots in
the question), ``first`` or ``last``; ``text`` variants). A template starting with ``<-1>``
tells of the day before the message ("yesterday"): the answer's date says so.

    python benchmarks/make_dev_chats.py            # writes benchmarks/data/chats/<name>.json
    python benchmarks/make_dev_chats.py --check    # fails if a written chat differs
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent / "data" / "chats"
TEMPLATES = HERE / "templates"
#: Sessions per chat (drawn in this range) and messages per session.
SESSIONS = (18, 20)
SESSION_MESSAGES = (12, 19)
#: Kinds a second person also has (two people's trips and books confuse "which ... has X").
TWICE = ("trips", "books", "hobby", "diet")
YESTERDAY = "<-1>"


@dataclass
class Event:
    """A message planned in a session: who says it, what, and the key questions name it by."""

    speaker: str
    text: str
    key: str | None = None


@dataclass
class Session:
    events: list[list[Event]] = field(default_factory=list)  # each a run kept together
    people: set[str] = field(default_factory=set)


def fill_slots(template: str, slots: dict[str, str]) -> str:
    """``template`` with its slots filled, twice (a pool's value may hold ``{p}``)."""
    return template.format(**slots).format(**slots)


class Generator:
    def __init__(self, spec: dict[str, Any], chat: dict[str, Any]) -> None:
        self.spec = spec
        self.chat = chat
        self.rng = random.Random(chat["seed"])
        self.people: list[str] = chat["people"]
        count = self.rng.randint(*SESSIONS)
        self.sessions = [Session() for _ in range(count)]
        self.pools = {name: list(values) for name, values in spec["pools"].items()}
        for values in self.pools.values():
            self.rng.shuffle(values)
        self.questions: list[dict[str, Any]] = []
        self.answers: dict[str, list[str]] = {}  # question key -> event keys
        self.decks: dict[str, list[str]] = {}

    def draw(self, pool: str) -> dict[str, str]:
        values = self.pools[pool]
        if not values:
            raise ValueError(f"{self.chat['name']}: the pool {pool!r} ran out; add values.")
        return dict(values.pop())

    def other(self, person: str) -> str:
        return self.rng.choice([p for p in self.people[:2] if p != person] or self.people)

    def assignments(self) -> list[tuple[str, str]]:
        """(person, kind): every kind once, those of ``TWICE`` for a second person too."""
        weights = (0.45, 0.4, 0.15)
        pairs = []
        for kind in self.spec["kinds"]:
            person = self.rng.choices(self.people, weights)[0]
            pairs.append((person, kind))
            if kind in TWICE:
                pairs.append((self.rng.choice([p for p in self.people if p != person]), kind))
        return pairs

    def steps_sessions(self, steps: int) -> list[int]:
        """Sessions of a fact's steps: distinct, in order, at least two sessions apart."""
        last = len(self.sessions) - 1
        while True:
            chosen = sorted(self.rng.sample(range(1, last), steps))
            if all(b - a >= 2 for a, b in itertools.pairwise(chosen)):
                return chosen

    def plant(self, person: str, kind: str, number: int) -> None:
        spec = self.spec["kinds"][kind]
        steps = spec.get("steps", 1)
        shared: dict[str, str] = {"p": person}
        for pool in spec.get("pools", []):
            shared.update(self.draw(pool))
        at = self.steps_sessions(steps)
        step_slots = []
        fact = f"{kind}-{number}"
        for step, session in enumerate(at, start=1):
            slots = dict(shared)
            for pool in spec.get("step_pools", []):
                slots.update(self.draw(pool))
            step_slots.append(slots)
            templates = spec.get(f"plant_{step}") or spec["plant"]
            template = self.rng.choice(templates)
            event = Event(person, template, f"{fact}/{step}")
            run = [event]
            if spec.get("reply") and self.rng.random() < 0.8:
                run.append(Event(self.other(person), self.rng.choice(spec["reply"])))
            for message in run:
                message.text = fill_slots(message.text, slots)
            self.sessions[session].events.append(run)
            self.sessions[session].people.add(person)
        if spec.get("before") and at[0] > 0:
            session = self.rng.randrange(0, at[0])
            text = fill_slots(self.rng.choice(spec["before"]), step_slots[0])
            self.sessions[session].events.append([Event(person, text)])
            self.sessions[session].people.add(person)
        for _ in range(self.rng.randint(1, 2) if spec.get("after") else 0):
            if at[-1] + 1 >= len(self.sessions):
                break
            session = self.rng.randrange(at[-1] + 1, len(self.sessions))
            text = fill_slots(self.rng.choice(spec["after"]), step_slots[-1])
            self.sessions[session].events.append([Event(person, text)])
            self.sessions[session].people.add(person)
        for question in spec["questions"]:
            self.ask(question, fact, step_slots)

    def ask(self, question: dict[str, Any], fact: str, step_slots: list[dict[str, str]]) -> None:
        steps = len(step_slots)
        chosen = {
            "plant": [1],
            "all": list(range(1, steps + 1)),
            "first": [1],
            "last": [steps],
            "one": [self.rng.randint(1, steps)],
        }[question["answers"]]
        slots = step_slots[chosen[0] - 1] if question["answers"] == "one" else step_slots[-1]
        text = fill_slots(self.rng.choice(question["text"]), slots)
        key = f"q{len(self.questions)}"
        self.answers[key] = [f"{fact}/{step}" for step in chosen]
        self.questions.append({"key": key, "question": text, "category": question["category"]})

    def dealt(self, pool: str) -> str:
        """The next of a shuffled deck of ``pool``'s filler, shuffled again once dealt: a
        filler comes back only after every other one of its pool."""
        deck = self.decks.get(pool)
        if not deck:
            deck = self.decks[pool] = list(self.spec["filler"][pool])
            self.rng.shuffle(deck)
        return deck.pop()

    def filler(self, count: int, people: list[str]) -> list[Event]:
        out = []
        for _ in range(count):
            pool = "reactions" if self.rng.random() < 0.25 else "messages"
            out.append(Event(self.rng.choice(people), self.dealt(pool)))
        return out

    def messages(self) -> tuple[list[dict[str, str]], dict[str, str], dict[str, datetime]]:
        """Every session's messages in order; the id of each planted event; its day."""
        moment = datetime.fromisoformat(self.chat["start"])
        out: list[dict[str, str]] = []
        ids: dict[str, str] = {}
        times: dict[str, datetime] = {}
        for number, session in enumerate(self.sessions):
            people = self.people[:2] + (
                [self.people[2]]
                if self.people[2] in session.people or self.rng.random() < 0.3
                else []
            )
            size = self.rng.randint(*SESSION_MESSAGES)
            runs = session.events + [[e] for e in self.filler(max(0, size - 2), people)]
            self.rng.shuffle(runs)
            opening = Event(self.rng.choice(people), self.dealt("opening"))
            closing = Event(self.rng.choice(people), self.dealt("closing"))
            if number:
                hour = self.rng.choice((8, 12, 18, 19, 20, 21))
                moment = (moment + timedelta(days=self.rng.randint(2, 6))).replace(
                    hour=hour, minute=self.rng.randrange(60)
                )
            for event in [opening, *(e for run in runs for e in run), closing]:
                moment += timedelta(minutes=self.rng.randint(1, 5), seconds=self.rng.randrange(60))
                key = f"m{len(out)}"
                text = event.text.removeprefix(YESTERDAY)
                out.append(
                    {"id": key, "speaker": event.speaker, "time": moment.isoformat(), "text": text}
                )
                if event.key is not None:
                    ids[event.key] = key
                    times[event.key] = moment - timedelta(days=event.text.startswith(YESTERDAY))
        return out, ids, times

    def date_text(self, moment: datetime) -> str:
        month = self.spec["months"][moment.month - 1]
        return self.spec["date_format"].format(day=moment.day, month=month, year=moment.year)

    def build(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for person, kind in self.assignments():
            counts[kind] = counts.get(kind, 0) + 1
            self.plant(person, kind, counts[kind])
        messages, ids, times = self.messages()
        text_of = {m["id"]: m["text"] for m in messages}
        questions = []
        for question in self.questions:
            keys = self.answers[question["key"]]
            answer_ids = [ids[key] for key in keys]
            answer = (
                self.date_text(times[keys[0]])
                if question["category"] == "time"
                else " / ".join(text_of[i] for i in answer_ids)
            )
            questions.append(
                {
                    "question": question["question"],
                    "answer_ids": answer_ids,
                    "category": question["category"],
                    "answer": answer,
                }
            )
        return {
            "name": self.chat["name"],
            "language": self.spec["language"],
            "generated_by": "benchmarks/make_dev_chats.py (templated; see its docstring)",
            "messages": messages,
            "questions": questions,
        }


def chats() -> dict[str, dict[str, Any]]:
    out = {}
    for path in sorted(TEMPLATES.glob("*.toml")):
        spec = tomllib.loads(path.read_text("utf-8"))
        for chat in spec["chats"]:
            out[chat["name"]] = Generator(spec, chat).build()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if a written chat differs")
    args = parser.parse_args()
    stale = []
    for name, chat in chats().items():
        path = HERE / f"{name}.json"
        text = json.dumps(chat, ensure_ascii=False, indent=1) + "\n"
        if args.check:
            if not path.is_file() or path.read_text("utf-8") != text:
                stale.append(name)
            continue
        path.write_text(text, encoding="utf-8")
        by_category: dict[str, int] = {}
        for question in chat["questions"]:
            by_category[question["category"]] = by_category.get(question["category"], 0) + 1
        size = f"{len(chat['messages'])} messages, {len(chat['questions'])} questions"
        print(f"{name}: {size} {by_category}")
    if stale:
        sys.exit(f"out of date: {', '.join(stale)}; run python benchmarks/make_dev_chats.py")


if __name__ == "__main__":
    main()
