"""The atlas's web site in a real browser: Chromium driven by Selenium.

Builds a small atlas with ``nimtab atlas --html`` (the binary named by ``NIMTAB_BIN``),
opens its ``index.html`` from ``file://`` and checks that the table has a row per class,
sorts by a numeric column (both ways, empty cells last) and by code, filters by the text
box and the status choice, that every link of the index and of every class page loads a
page with the heading it should have (and its anchor, when it names one), and that no
page logs a console error. Chromium and chromedriver are Debian's (``CHROMIUM``,
``CHROMEDRIVER`` name others). Prints one line per check and ends with
``browser: N passed, N failed``; the exit status is 1 when a check failed.
"""

import csv
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

CODES = "0.07;0.16;0.6;0.62;4.0"
SMALL = ["--budget", "2^12", "--dense-budget", "2^12", "--quiet"]


def build_site(work: Path) -> tuple[Path, list[dict]]:
    """Runs the atlas into ``work``; returns the site's folder and classes.csv's rows,
    each with its standard form's row of atlas.csv."""
    binary = os.environ["NIMTAB_BIN"]
    args = ["atlas", "--codes", CODES, "--out", "atlas", "--html", "site", *SMALL]
    subprocess.run([binary, *args], cwd=work, check=True)
    with open(work / "atlas" / "atlas.csv", newline="", encoding="utf-8") as f:
        codes = {row["code"]: row for row in csv.DictReader(f)}
    with open(work / "atlas" / "classes.csv", newline="", encoding="utf-8") as f:
        classes = [dict(row, entry=codes[row["standard_form"]]) for row in csv.DictReader(f)]
    return work / "site", classes


def browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1024"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


class Checks:
    """The checks, sharing one browser and one site."""

    def __init__(self, driver: webdriver.Chrome, site: Path, classes: list[dict]):
        self.driver = driver
        self.site = site
        self.classes = classes
        self.index = (site / "index.html").as_uri()

    def no_errors(self, where: str) -> None:
        """Fails with the console's errors logged since the last call, if any."""
        logged = self.driver.get_log("browser")
        errors = [e["message"] for e in logged if e["level"] == "SEVERE"]
        assert not errors, f"console errors at {where}: {errors}"

    def open_index(self) -> None:
        self.driver.get(self.index)
        self.no_errors(self.driver.current_url)

    def column(self, name: str) -> int:
        headings = self.driver.find_elements(By.CSS_SELECTOR, "#classes thead th")
        names = [h.text.rstrip(" ▲▼") for h in headings]
        return names.index(name)

    def shown_forms(self) -> list[str]:
        """The standard forms of the rows shown, top to bottom."""
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#classes tbody tr")
        return [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows if r.is_displayed()]

    def sort_by(self, name: str) -> str:
        """Clicks a column's heading; returns its aria-sort."""
        heading = self.driver.find_elements(By.CSS_SELECTOR, "#classes thead th")[self.column(name)]
        heading.find_element(By.TAG_NAME, "button").click()
        return heading.get_attribute("aria-sort")

    def expected_order(self, field: str, descending: bool) -> list[str]:
        """Standard forms sorted by an atlas.csv column as numbers, empty ones last, ties in
        the classes' order."""
        full = [c for c in self.classes if c["entry"][field] != ""]
        empty = [c for c in self.classes if c["entry"][field] == ""]
        # Python's sort is stable, in reverse too: ties keep the classes' order.
        full.sort(key=lambda c: int(c["entry"][field]), reverse=descending)
        return [c["standard_form"] for c in full + empty]

    def test_the_table_has_a_row_per_class(self) -> None:
        self.open_index()
        forms = self.shown_forms()
        assert forms == [c["standard_form"] for c in self.classes], forms
        assert self.driver.find_element(By.ID, "shown").text == f"{len(forms)} of {len(forms)} classes"
        assert self.driver.title.startswith("Atlas of octal games"), self.driver.title

    def test_numeric_columns_sort_as_numbers_both_ways_empty_cells_last(self) -> None:
        for name, field in [("largest value", "largest_value"), ("period", "period")]:
            self.open_index()
            assert self.sort_by(name) == "ascending"
            assert self.shown_forms() == self.expected_order(field, False), (name, self.shown_forms())
            assert self.sort_by(name) == "descending"
            assert self.shown_forms() == self.expected_order(field, True), (name, self.shown_forms())
        self.no_errors(self.driver.current_url)

    def test_the_code_column_sorts_by_code(self) -> None:
        self.open_index()
        forms = sorted(c["standard_form"] for c in self.classes)
        self.sort_by("#")  # away from the classes' order, which is already by code
        assert self.shown_forms() == forms[::-1]
        assert self.sort_by("standard form") == "ascending"
        assert self.shown_forms() == forms
        assert self.sort_by("standard form") == "descending"
        assert self.shown_forms() == forms[::-1]
        self.no_errors(self.driver.current_url)

    def expected_filtered(self, text: str, status: str) -> list[str]:
        kept = []
        for c in self.classes:
            how = c["how"] + (f" {c['through']}" if c["through"] else "")
            words = f"{c['members']} {c['entry']['status']} {how}".lower()
            if text.lower() in words and status in ("", c["entry"]["status"]):
                kept.append(c["standard_form"])
        return kept

    def test_the_text_box_and_the_status_filter_the_rows(self) -> None:
        self.open_index()
        box = self.driver.find_element(By.ID, "filter")
        status = Select(self.driver.find_element(By.ID, "status"))
        for text, wanted in [("0.6", ""), ("0.62", ""), ("equal", ""), ("", "solved"), ("0.0", "solved"), ("", "")]:
            box.clear()
            box.send_keys(text)
            status.select_by_value(wanted)
            expected = self.expected_filtered(text, wanted)
            assert self.shown_forms() == expected, (text, wanted, self.shown_forms(), expected)
            count = self.driver.find_element(By.ID, "shown").text
            assert count == f"{len(expected)} of {len(self.classes)} classes", count
        assert len(self.shown_forms()) == len(self.classes)
        self.no_errors(self.driver.current_url)

    @staticmethod
    def heading_is_right(path: Path, heading: str) -> bool:
        if path.name == "index.html":
            return heading.startswith("Atlas of octal games: ")
        return heading == f"Class {path.stem}"

    def test_every_link_of_every_page_loads_its_page_and_anchor(self) -> None:
        pages, seen, followed = [self.index], {self.index}, 0
        while pages:
            page = pages.pop()
            self.driver.get(page)
            self.no_errors(page)
            hrefs = [a.get_attribute("href") for a in self.driver.find_elements(By.TAG_NAME, "a")]
            assert hrefs, page
            for href in hrefs:
                url, anchor = urldefrag(href)
                parsed = urlparse(url)
                assert parsed.scheme == "file", (page, href)
                path = Path(unquote(parsed.path))
                assert path.is_file() and self.site in path.parents, (page, href)
                self.driver.get(href)
                followed += 1
                heading = self.driver.find_element(By.TAG_NAME, "h1").text
                assert self.heading_is_right(path, heading), (href, heading)
                assert self.driver.title, href
                if anchor:
                    assert self.driver.find_elements(By.ID, anchor), (page, href)
                self.no_errors(href)
                if url not in seen:
                    seen.add(url)
                    pages.append(url)
        class_pages = {p.as_uri() for p in (self.site / "class").glob("*.html")}
        assert class_pages <= seen, class_pages - seen
        assert followed > len(class_pages), followed

    def test_a_click_on_a_member_opens_its_row_on_the_class_page(self) -> None:
        self.open_index()
        member = self.driver.find_element(By.CSS_SELECTOR, "a[href$='#code-0.62']")
        member.click()
        assert self.driver.current_url.endswith("class/0.6.html#code-0.62"), self.driver.current_url
        row = self.driver.find_element(By.ID, "code-0.62")
        assert row.text.startswith("0.62 unsolved"), row.text
        self.driver.find_element(By.LINK_TEXT, "All classes").click()
        assert self.driver.current_url == self.index
        self.no_errors(self.driver.current_url)


def main() -> int:
    with tempfile.TemporaryDirectory() as work:
        site, classes = build_site(Path(work))
        driver = browser()
        try:
            checks = Checks(driver, site, classes)
            names = [n for n in dir(Checks) if n.startswith("test_")]
            failed = 0
            for name in sorted(names):
                try:
                    getattr(checks, name)()
                    print(f"ok     {name}")
                except Exception:  # every failure is reported, and the next check runs
                    failed += 1
                    print(f"FAILED {name}")
                    traceback.print_exc(file=sys.stdout)
            print(f"browser: {len(names) - failed} passed, {failed} failed")
            return 1 if failed else 0
        finally:
            driver.quit()


if __name__ == "__main__":
    sys.exit(main())
