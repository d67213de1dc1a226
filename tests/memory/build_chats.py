# ruff: noqa: RUF001  (chats in scripts written without spaces, with their own punctuation)
"""Hand-made conversations for the build tests: topics with their own words, times, speakers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
SPEAKERS = ("Ann", "Bob", "Chloé")

#: Three topics, each with lines that share its vocabulary (and none of the others').
TOPICS = {
    "offsite": [
        "The offsite venue in Lyon can host thirty people in March.",
        "I called the Lyon venue and they still have the big room free.",
        "Should we book the hotel rooms near the venue for two nights?",
        "The venue wants a deposit before Friday to hold the March dates.",
        "Train tickets to Lyon are cheaper if we book the offsite trip now.",
        "Catering at the venue includes lunch and a dinner on the first night.",
        "Let's ask Dana Whitfield whether the offsite agenda fits two days.",
        "The hotel near the venue gives a group rate for the offsite.",
    ],
    "budget": [
        "The quarterly budget leaves 12,000 euros for hiring and tools.",
        "Finance wants the budget spreadsheet updated with the cloud invoices.",
        "Our cloud invoices grew by 18% since the last budget review.",
        "We could cut the budget for licences by moving to yearly invoices.",
        "The spreadsheet shows hiring costs above the budget forecast.",
        "Please send the invoices to finance before the budget review on Monday.",
        "The forecast in the spreadsheet assumes two hires this quarter.",
        "Licences and cloud costs take most of the remaining budget.",
    ],
    "release": [
        "The website release needs the checkout page tested on mobile.",
        "QA found a crash in the checkout page when the cart is empty.",
        "Can we ship the website release on Thursday after the QA pass?",
        "The mobile layout of the checkout page still breaks on small screens.",
        "I fixed the crash in the cart and pushed the patch for review.",
        "The release notes should mention the new checkout and the mobile fixes.",
        "QA will run the regression suite on the release branch tonight.",
        "Marketing wants the website release announced on Thursday morning.",
    ],
}
#: The same three topics in languages written without spaces between words.
UNSPACED_TOPICS = {
    "zh": {
        "offsite": [
            "里昂的会场三月可以容纳三十个人。",
            "我给里昂的会场打了电话，大会议室还空着。",
            "我们要不要在会场附近订两晚的酒店？",
            "会场要求周五之前付定金才能保留三月的日期。",
        ],
        "budget": [
            "这个季度的预算还剩一万二千欧元用于招聘和工具。",
            "财务部希望我们把云服务发票更新到预算表里。",
            "云服务的费用比上次预算评审增加了百分之十八。",
            "改成按年付费可以减少软件许可的预算。",
        ],
        "release": [
            "网站发布之前需要在手机上测试结账页面。",
            "测试人员发现购物车为空时结账页面会崩溃。",
            "测试通过以后我们能在周四发布网站吗？",
            "结账页面的手机布局在小屏幕上还是有问题。",
        ],
    },
    "ja": {
        "offsite": [
            "リヨンの会場は三月に三十人まで収容できます。",
            "リヨンの会場に電話したら、大きい部屋がまだ空いていました。",
            "会場の近くのホテルを二泊予約しましょうか。",
            "三月の日程を押さえるには金曜日までに手付金が必要です。",
        ],
        "budget": [
            "今四半期の予算は採用とツールに一万二千ユーロ残っています。",
            "経理はクラウドの請求書で予算表を更新してほしいそうです。",
            "クラウドの費用は前回の予算見直しから十八パーセント増えました。",
            "年払いにすればライセンスの予算を削れます。",
        ],
        "release": [
            "ウェブサイトのリリース前にスマホで決済ページをテストする必要があります。",
            "カートが空のときに決済ページがクラッシュする不具合が見つかりました。",
            "テストが通ったら木曜日にリリースできますか。",
            "決済ページのスマホ表示が小さい画面でまだ崩れます。",
        ],
    },
    "th": {
        "offsite": [
            "สถานที่จัดงานที่ลียงรับคนได้สามสิบคนในเดือนมีนาคม",
            "ผมโทรไปที่สถานที่จัดงานแล้ว ห้องใหญ่ยังว่างอยู่",
            "เราควรจองโรงแรมใกล้สถานที่จัดงานสองคืนไหม",
            "สถานที่จัดงานต้องการเงินมัดจำก่อนวันศุกร์",
        ],
        "budget": [
            "งบประมาณไตรมาสนี้เหลือหนึ่งหมื่นสองพันยูโรสำหรับการจ้างงานและเครื่องมือ",
            "ฝ่ายการเงินอยากให้อัปเดตตารางงบประมาณด้วยใบแจ้งหนี้คลาวด์",
            "ค่าใช้จ่ายคลาวด์เพิ่มขึ้นสิบแปดเปอร์เซ็นต์ตั้งแต่การทบทวนงบประมาณครั้งก่อน",
            "ถ้าจ่ายรายปีเราจะลดงบประมาณค่าไลเซนส์ได้",
        ],
        "release": [
            "ก่อนปล่อยเว็บไซต์ต้องทดสอบหน้าชำระเงินบนมือถือ",
            "ทีมทดสอบเจอปัญหาหน้าชำระเงินล่มเมื่อตะกร้าว่าง",
            "ถ้าทดสอบผ่านแล้วเราปล่อยเว็บไซต์วันพฤหัสได้ไหม",
            "หน้าชำระเงินบนมือถือยังแสดงผลผิดบนจอเล็ก",
        ],
    },
}
FILLERS = ["ok", "sounds good", "👍", "sure, thanks", "yes"]


def topic_chat(
    per_topic: int = 50, gap_after: int | None = None, topics: dict[str, list[str]] = TOPICS
) -> list[dict]:
    """``per_topic`` messages on each of ``topics`` in turn (offsite, budget, release), every 2
    minutes, every fifth one a short filler; a 3-hour pause after message ``gap_after``."""
    messages = []
    time = START
    for topic, lines in topics.items():
        for position in range(per_topic):
            index = len(messages)
            text = FILLERS[index % len(FILLERS)] if index % 5 == 4 else lines[position % len(lines)]
            messages.append(
                {"text": text, "speaker": SPEAKERS[index % 3], "time": time, "topic": topic}
            )
            time += timedelta(hours=3) if index == gap_after else timedelta(minutes=2)
    return messages
