from hypothesis import given, settings
from hypothesis import strategies as st

from rle.codec import decode, encode


def test_encode_example():
    assert encode("aaabcc") == "3a1b2c"


def test_decode_example():
    assert decode("3a1b2c") == "aaabcc"


@given(st.text(alphabet="ab", max_size=30))
def test_roundtrip_letters(text):
    assert decode(encode(text)) == text


@settings(max_examples=300, derandomize=True)
@given(st.text(max_size=20))
def test_roundtrip_any_text(text):
    assert decode(encode(text)) == text
