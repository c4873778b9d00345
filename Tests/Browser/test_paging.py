"""Paging a long People list (issue 21 point 4): a made-up network of 250 people (`habits-api --users 250`) fills
three pages of 100; the plain <nav> after the cards pages through them with JavaScript and without, the current page
marked, and following someone on page 2 comes back to page 2."""

import pytest
from conftest import current_page, generated_dashboard, screenshot, wait_until
from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def crowd(tmp_path_factory):
    with generated_dashboard(tmp_path_factory.mktemp("paging"), seed=21, users=250, habits=30, log_name="paging") as url:
        yield url


def cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, ".people-grid .person-card")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_people_pages_through_a_long_list(crowd, browser, browser_without_js, javascript):
    driver = browser if javascript else browser_without_js
    driver.get(crowd + "/people")
    assert len(cards(driver)) == 100
    nav = driver.find_element(By.CSS_SELECTOR, 'nav.pager[aria-label="Pages of people"]')
    assert current_page(driver) == "1"
    assert [link.get_attribute("aria-label") for link in nav.find_elements(By.CSS_SELECTOR, "a.pager-page")] == [
        "Page 1", "Page 2", "Page 3"]
    assert "Showing 1–100 of 250 people" in driver.find_element(By.CSS_SELECTOR, ".summary").text
    first_names = [card.find_element(By.CSS_SELECTOR, ".person-name").text for card in cards(driver)]
    screenshot(driver, f"people-paging-{'js' if javascript else 'no-js'}")

    nav.find_element(By.CSS_SELECTOR, 'a[rel="next"]').click()
    wait_until(lambda: driver.current_url.endswith("/people?page=2"), message="page 2")
    assert current_page(driver) == "2"
    second_names = [card.find_element(By.CSS_SELECTOR, ".person-name").text for card in cards(driver)]
    assert len(second_names) == 100 and not set(second_names) & set(first_names)

    driver.find_element(By.CSS_SELECTOR, 'nav.pager a[aria-label="Page 3"]').click()
    wait_until(lambda: driver.current_url.endswith("/people?page=3"), message="page 3")
    assert len(cards(driver)) == 50
    assert not driver.find_elements(By.CSS_SELECTOR, 'nav.pager a[rel="next"]')
    driver.find_element(By.CSS_SELECTOR, 'nav.pager a[rel="prev"]').click()
    wait_until(lambda: driver.current_url.endswith("/people?page=2"), message="back to page 2")

    # Following someone on page 2 comes back to page 2 with them followed.
    card = cards(driver)[3]
    name = card.find_element(By.CSS_SELECTOR, ".person-name").text
    card.find_element(By.CSS_SELECTOR, "form[data-toggle=follow] button").click()
    wait_until(lambda: any(c.find_element(By.CSS_SELECTOR, ".person-name").text == name
                           and "is-followed" in c.get_attribute("class") for c in cards(driver)),
               message="the followed card on page 2")
    assert "page=2" in driver.current_url
    assert current_page(driver) == "2"


def test_a_page_past_the_last_is_a_clear_404(crowd, browser):
    browser.get(crowd + "/people?page=9")
    assert "There is no page 9 of people" in browser.page_source
    browser.get(crowd + "/people?page=zero")
    assert "A page is a number from 1" in browser.page_source
