"""Korean particles chosen by the preceding word's final consonant (batchim).

The Korean catalogue writes a particle that follows a variable part in both forms, the
form after a consonant first: ``{0}이(가)``, ``{0}을(를)``, ``{0}은(는)``, ``{0}과(와)``
(or ``와(과)``), ``{0}(으)로``, ``{0}(이)나``.  :func:`particles` replaces each such
marker, once the text is final (its arguments filled, its seats renumbered or named),
by the one form that fits the word before it:

- a Hangul syllable: its final consonant (``좌석 3을``, ``리더를``); ``(으)로`` takes
  ``로`` after a vowel and after ㄹ (``서울로``), ``으로`` after any other consonant;
- a digit as Korean reads it (일, 이, 삼...: ``2가``, ``3이``, ``1로``);
- a word in Latin letters as it is commonly read (``l`` as ㄹ; ``m``, ``n``, ``ng`` and a
  ``b``/``p``/``t``/``k`` after a vowel as consonants; anything else as a vowel: ``Alice가``);
- closing quotes and brackets are skipped (``'archers'를``); anything else (a symbol,
  a Chinese character) takes the form after a consonant, which reads acceptably either way.

The same rules run in the pages (``I18N.particles`` in ``static/i18n.js``).
"""

from __future__ import annotations

import re

#: Each marker: (form after a consonant, form after a vowel, form after ㄹ).
_FORMS: dict[str, tuple[str, str, str]] = {
    "이(가)": ("이", "가", "이"),
    "가(이)": ("이", "가", "이"),
    "은(는)": ("은", "는", "은"),
    "는(은)": ("은", "는", "은"),
    "을(를)": ("을", "를", "을"),
    "를(을)": ("을", "를", "을"),
    "과(와)": ("과", "와", "과"),
    "와(과)": ("과", "와", "과"),
    "(으)로": ("으로", "로", "로"),
    "(이)나": ("이나", "나", "이나"),
    "(이)라": ("이라", "라", "이라"),
    "(이)다": ("이다", "다", "이다"),
    "(이)며": ("이며", "며", "이며"),
    "(이)고": ("이고", "고", "이고"),
}
_MARKER = re.compile("|".join(re.escape(marker) for marker in _FORMS))
#: Closing marks skipped to find the word a particle follows.
_CLOSING = "'\"’”)]}」』》〉>*`"
#: Digits as Korean reads them: 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구.
_DIGIT_FINAL = {
    "0": "c",
    "1": "l",
    "2": "v",
    "3": "c",
    "4": "v",
    "5": "v",
    "6": "c",
    "7": "l",
    "8": "l",
    "9": "v",
}


def final_sound(word: str) -> str:
    """How ``word`` ends for a particle: ``"v"`` (a vowel), ``"l"`` (ㄹ) or ``"c"``
    (another consonant, also the default for what has no Korean reading)."""
    text = word.rstrip()
    while text and text[-1] in _CLOSING:
        text = text[:-1].rstrip()
    if not text:
        return "c"
    last = text[-1]
    code = ord(last) - 0xAC00
    if 0 <= code < 11172:
        final = code % 28
        return "v" if final == 0 else ("l" if final == 8 else "c")
    if last in _DIGIT_FINAL:
        return _DIGIT_FINAL[last]
    if last.isascii() and last.isalpha():
        return _latin_final(text)
    return "c"


def _latin_final(text: str) -> str:
    """How a word in Latin letters ends as Korean commonly reads it: ``l`` as ㄹ
    (``Paul``), ``m``/``n``/``ng`` as consonants, a ``b``/``p``/``t``/``k``
    right after a vowel letter as a consonant (``keep`` 킵, ``target`` 타깃), anything else
    as a vowel (``pass`` 패스, ``Alice`` 앨리스, ``meld`` 멜드)."""
    lower = text.lower()
    last = lower[-1]
    if last == "l":
        return "l"
    if last in "mn" or lower.endswith("ng"):
        return "c"
    if last in "bptk" and len(lower) > 1 and lower[-2] in "aeiou":
        return "c"
    return "v"


def particles(text: str) -> str:
    """``text`` with each two-form particle marker (``이(가)``...) replaced by the form
    that fits the word before it (see the module's rules); a marker at the start of the
    text or after a space is left as it is (it follows no word)."""
    if "(" not in text:
        return text

    def choose(m: re.Match[str]) -> str:
        before = text[: m.start()]
        if not before or before[-1].isspace():
            return m.group(0)
        consonant, vowel, rieul = _FORMS[m.group(0)]
        sound = final_sound(before)
        return vowel if sound == "v" else (rieul if sound == "l" else consonant)

    return _MARKER.sub(choose, text)
