"""What a visitor puts in a link is shown as typed in a real browser, never rendered.

Messages that quote a refused value go through lnviz.app.ui.plain; here Streamlit's own
markdown renderer gets the hardest cases and the resulting DOM is inspected.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .helpers import Visit, exception_report

pytestmark = pytest.mark.browser

LINK = {  # every value is refused, and each message quotes it (first 40-60 characters)
    "z": "**b** _i_ ~~s~~ <b>h</b>",
    "s": "[a](javascript:alert(1))",
    "r": "![i](https://example.com/x.png)",
    "dx": ":material/home: :red[r] $x^2$",
    "eps": "www.example.com a@b.org",
    "c": "`x` <i>y</i>",
}
ALERTS = "[data-testid=stAlertContentWarning], [data-testid=stAlertContentError]"


def test_markup_in_a_link_is_shown_literally(open_page: Callable[..., Visit]) -> None:
    visit = open_page("invariance", LINK)
    page = visit.page
    assert not exception_report(visit)
    text = " ".join(page.locator(ALERTS).all_inner_texts()).replace("\u2060", "")
    for key, value in LINK.items():
        assert value in text, f"{key}: {value!r} is not shown as typed"
    rendered = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].flatMap((box) =>
            [...box.querySelectorAll('a, img, em, del, b, i, .katex, [data-testid=stIconMaterial]')]
              .map((e) => e.outerHTML.slice(0, 80)))""",
        ALERTS,
    )
    assert not rendered, f"visitor markup was rendered: {rendered}"
    assert not page.evaluate(
        "() => document.querySelectorAll('[data-testid=stMain] script').length"
    )
    assert not visit.dialogs


@pytest.mark.parametrize(
    ("path", "query", "corrected", "said"),
    [
        (
            "epsilon",
            {"eps": "0.5"},
            "eps=0.56",
            "between the slider's values: showing the nearest, 0.56",
        ),
        ("numerics", {"n": "inf"}, "", "The link set n to “inf”, which is not accepted"),
        ("frameworks", {"seed": "inf"}, "", "The link set seed to “inf”, which is not accepted"),
    ],
)
def test_a_corrected_link_value_is_corrected_in_the_address_and_said_once(
    open_page: Callable[..., Visit], path: str, query: dict[str, str], corrected: str, said: str
) -> None:
    """lnviz.app.links: the page corrects the link first and runs again from it; the
    message survives that run and the browser's own run after the new address arrives,
    and a folded panel whose control was corrected opens (the seed's on frameworks)."""
    visit = open_page(path, query)
    page = visit.page
    page.wait_for_function(
        "(want) => location.search.replace(/^\\?/, '') === want", arg=corrected, timeout=10_000
    )
    page.wait_for_timeout(1_000)  # the browser's run for the new address, if any
    assert not exception_report(visit)
    text = page.locator(".stMain").inner_text().replace("\u2060", "")
    assert text.count(said) == 1, text[:2000]
