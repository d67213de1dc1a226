"""Thai cues (see :mod:`rerank_plus.memory.query.lexicon`).

Written without spaces: each fragment matches inside the run of characters, so short words
that are also parts of longer ones ("ผล" of "ผลิตภัณฑ์", "หลัก" of "หลักฐาน") are listed only
inside the phrases they ask with. Queries are read in NFKC, which writes sara am ("ำ") as two
characters: :func:`_as_read` puts the table in that form. Years in the Buddhist era (2567)
are not read: a date's year must be the Gregorian one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from rerank_plus.memory.query.lexicon.table import Lexicon, _frozen

#: "in (the span of)": what may lead a span of time ("ในช่วง 2 ชั่วโมงที่ผ่านมา").
_IN = r"(?:ใน)?(?:ช่วง)?\s*"


def _as_read(lexicon: Lexicon) -> Lexicon:
    """``lexicon`` in NFKC, the form queries are matched in (analysis.normalize)."""

    def normalized(value: Any) -> Any:
        if isinstance(value, str):
            return unicodedata.normalize("NFKC", value)
        if isinstance(value, tuple):
            return tuple(normalized(item) for item in value)
        if isinstance(value, Mapping):
            return _frozen({normalized(k): normalized(v) for k, v in value.items()})
        return value

    return replace(
        lexicon, **{f.name: normalized(getattr(lexicon, f.name)) for f in fields(lexicon)}
    )


THAI = _as_read(
    Lexicon(
        summary=(
            r"สรุป",
            r"โดยย่อ",
            r"ย่อๆ",
            r"สั้นๆ",
            r"ทบทวน",
            r"ไล่เรียง",
            r"เล่าให้ฟัง",
            r"เกี่ยวกับอะไร",
            r"(?:คุย|พูด|หารือ|ประชุม)(?:กัน)?(?:เรื่อง)?อะไร",
            r"ลิสต์",
        ),
        breadth=(
            r"ประเด็นหลัก",
            r"ประเด็นสำคัญ",
            r"หัวข้อหลัก",
            r"เรื่องหลัก",
            r"ใจความสำคัญ",
            r"สาระสำคัญ",
            r"จุดสำคัญ",
            r"ภาพรวม",
            r"โดยรวม",
            r"ภาพใหญ่",
            r"ไทม์ไลน์",
            r"ลำดับเหตุการณ์",
            r"ตั้งแต่ต้นจนจบ",
            r"ทีละขั้น(?:ตอน)?",
            r"ขั้นตอนต่อไป",
            r"สิ่งที่ต้องทำ",
            r"ไฮไล[ตท]์",
        ),
        scope=(
            r"(?:การ)?ประชุม",
            r"(?:การ)?หารือ",
            r"(?:การ)?พูดคุย",
            r"(?:การ)?สนทนา",
            r"(?:การ)?อภิปราย",
            r"คุย",
            r"พูดถึง",
            r"กล่าวถึง",
            r"เอ่ยถึง",
            r"แชท",
            r"ทีม",
            r"กลุ่ม",
            r"ทั้งหมด",
            r"ทุกคน",
            r"ทุกอย่าง",
            r"หัวข้อ",
            r"ประเด็น",
            r"เรื่อง",
            r"ครั้งนี้",
            r"ครั้งนั้น",
            r"(?:การ)?ตัดสินใจ",
            r"มติ",
            r"ข้อสรุป",
            r"ข้อตกลง",
            r"ตกลง",
            r"ผลลัพธ์",
            r"วาระ",
            r"สำคัญ",
            r"เกิดขึ้น",
            r"โครงการ",
            r"โปรเจ[กค]ต์",
            r"สัมมนา",
            r"บันทึก",
            r"ผู้เข้าร่วม",
            r"(?:พวก)?เรา",
            r"ช่วย",
            r"หน่อย",
            r"ให้ฟัง",
            r"เล่า",
            r"ขอบคุณ",
            r"ครับ",
            r"ค่ะ",
        ),
        future=(r"ครั้งหน้า", r"ครั้งต่อไป", r"ถัดไป", r"อนาคต", r"กำลังจะ"),
        recency=(
            r"(?:มี)?อะไรใหม่",
            r"(?:ความ)?คืบหน้า",
            r"ล่าสุด",
            r"เร็วๆ\s*นี้",
            r"ช่วงนี้",
            r"อั[ปพ]เด[ตท]",
            r"(?:มีอะไร)?เปลี่ยน(?:ไป|แปลง)",
            r"พลาดอะไร",
            r"ข่าวใหม่",
            r"(?:การประชุม)?ครั้ง(?:ที่แล้ว|ก่อน)",
        ),
        entity_leads=(
            r"(?:ที่|ตรง|ตอน)ไหน(?:บ้าง)?ที่(?:มีการ)?(?:พูดถึง|กล่าวถึง|เอ่ยถึง|คุย(?:กัน)?เรื่อง)",
            r"ทุกครั้งที่(?:มีการ)?(?:พูดถึง|กล่าวถึง|เอ่ยถึง)",
        ),
        entity_trails=(r"(?:ที่|ตรง|ตอน)ไหน",),
        name_leads=(r"ใครคือ",),
        since=(r"ตั้งแต่", r"นับตั้งแต่", r"นับจาก"),
        range_opening=(r"ตั้งแต่", r"ระหว่าง"),
        range_inner=(r"ถึง", r"จนถึง", r"และ"),
        numbers=_frozen(
            {
                "หนึ่ง": 1,
                "สอง": 2,
                "สาม": 3,
                "สี่": 4,
                "ห้า": 5,
                "หก": 6,
                "เจ็ด": 7,
                "แปด": 8,
                "เก้า": 9,
                "สิบ": 10,
                "สิบสอง": 12,
                "ยี่สิบ": 20,
                "สามสิบ": 30,
                "สองสาม": 3,
            }
        ),
        units=_frozen(
            {
                "minute": r"นาที",
                "hour": r"ชั่วโมง|ชม\.?",
                "day": r"วัน",
                "week": r"สัปดาห์|อาทิตย์",
                "month": r"เดือน",
                "year": r"ปี",
            }
        ),
        ago=(r"<N>\s*<UNIT>(?:ที่แล้ว|ก่อน|มาแล้ว)",),
        last_n=(
            _IN + r"<N>\s*<UNIT>(?:ที่ผ่านมา|หลังสุด|ล่าสุด)",
            _IN + r"<UNIT>ที่ผ่านมา",
        ),
        days=_frozen({0: r"วันนี้", -1: r"เมื่อวาน(?!ซืน)(?:นี้)?", -2: r"เมื่อวานซืน"}),
        parts=_frozen(
            {
                "morning": r"(?:ตอน)?เช้า",
                "afternoon": r"(?:ตอน)?บ่าย",
                "evening": r"(?:ตอน)?(?:เย็น|ค่ำ)",
                "night": r"(?:ตอน)?กลางคืน|ดึก",
            }
        ),
        day_parts=(
            (r"เช้านี้", 0, "morning"),
            (r"บ่ายนี้", 0, "afternoon"),
            (r"เย็นนี้|คืนนี้", 0, "evening"),
            (r"เมื่อคืน(?:นี้)?", -1, "night"),
        ),
        part_joiner=r"\s*",
        weekdays=(
            r"วันจันทร์",
            r"วันอังคาร",
            r"วันพุธ",
            r"วันพฤหัส(?:บดี)?",
            r"วันศุกร์",
            r"วันเสาร์",
            r"วันอาทิตย์",
        ),
        previous_weekday=(r"<WEEKDAY>(?:ที่แล้ว|ก่อน)",),
        periods=_frozen({"week": r"สัปดาห์|อาทิตย์", "month": r"เดือน", "year": r"ปี"}),
        previous_period=(r"<PERIOD>(?:ที่แล้ว|ก่อน)",),
        current_period=(r"<PERIOD>นี้",),
        clock_times=(
            r"(?:เวลา\s*)?<HOUR>[:.]<MINUTE>\s*(?:น\.|นาฬิกา)",
            r"เวลา\s*<HOUR>[:.]<MINUTE>",
            r"(?:เวลา\s*)?<HOUR>\s*นาฬิกา(?:\s*<MINUTE>\s*นาที)?",
            r"<HOUR>:<MINUTE>",
        ),
        months=(
            r"มกราคม|ม\.ค\.",
            r"กุมภาพันธ์|ก\.พ\.",
            r"มีนาคม|มี\.ค\.",
            r"เมษายน|เม\.ย\.",
            r"พฤษภาคม|พ\.ค\.",
            r"มิถุนายน|มิ\.ย\.",
            r"กรกฎาคม|ก\.ค\.",
            r"สิงหาคม|ส\.ค\.",
            r"กันยายน|ก\.ย\.",
            r"ตุลาคม|ต\.ค\.",
            r"พฤศจิกายน|พ\.ย\.",
            r"ธันวาคม|ธ\.ค\.",
        ),
        month_alone=(r"(?:เดือน\s*)?<MONTH>",),
        day_dates=(r"(?:วันที่\s*)?<DAY>\s*<MONTH>",),
        spaced=False,
        script=("Thai",),
    )
)
