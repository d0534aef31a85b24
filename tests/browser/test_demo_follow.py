"""``companion demo`` in a real browser: the director plays its story through the rendered
camera, vision, the mock pads and the referee; two phones follow it."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.app.demo.run import DemoRun

from .conftest import PHONE


def test_the_demo_reaches_its_first_slap_ruling_on_a_second_phone_without_reload(demo_table, browser):
    table, server = demo_table
    run = DemoRun(table, hold_s=1.5, fps=6).start()
    try:
        phones = [browser.new_context(viewport=PHONE).new_page() for _ in range(2)]
        navigations = []
        for page in phones:
            page.goto(server.url + "/")
            expect(page.locator("#connection")).to_have_text("live")
        phones[1].on("framenavigated", lambda frame: navigations.append(frame.url))
        # The deal is read by the camera, the window opens, Ann and Bob slap 4 ms apart. The
        # slap's ruling may be the last one for less than a second (the camera sees Ann's card
        # land next), shorter than Playwright's polling: look for it among the rulings shown,
        # the last and the earlier ones (the page keeps twelve).
        rulings = [page.locator("#ruling-panel") for page in phones]
        expect(rulings[1]).to_contain_text("Ann slapped first, by 4 ms", timeout=90_000)
        expect(rulings[0]).to_contain_text("Ann slapped first, by 4 ms")
        expect(phones[1].locator("#headline")).to_contain_text("turn")
        assert navigations == []
        picture = phones[1].locator("#camera-picture")
        expect(picture).to_be_visible()
    finally:
        run.stop()
        for page in phones:
            page.context.close()
