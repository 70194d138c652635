"""What the pictures' tests ask of a name cut apart from names that start alike
(:func:`pictures.fonts.fit_apart`)."""

from __future__ import annotations


def assert_cut_apart(name: str, text: str) -> bool:
    """Whether ``text``, ``name`` as a picture shows it, was cut; a cut shows a beginning of
    the name, "…", and its last 4 characters (the end that tells alike names apart)."""
    if text == name:
        return False
    head, tail = text.split("…")
    assert head and name.startswith(head), (name, text)
    assert tail == name[-4:], (name, text)
    return True
