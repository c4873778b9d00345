"""Paging Habits and Log Habit (issue 21 point 4): a made-up network of 250 habits (`habits-api --habits 250`) fills
three pages of 100 on each; the plain <nav> after the list pages through them with JavaScript and without, a
favourite toggled on page 2 comes back to page 2, and logging from page 2 of Log Habit comes back to page 2 with the
confirmation."""

import pytest
from conftest import current_page, generated_dashboard, screenshot, wait_until
from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def habits_crowd(tmp_path_factory):
    with generated_dashboard(tmp_path_factory.mktemp("habit-paging"), seed=23, users=60, habits=250, log_name="habit-paging") as url:
        yield url


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_habits_pages_through_a_long_list(habits_crowd, browser, browser_without_js, javascript):
    driver = browser if javascript else browser_without_js
    driver.get(habits_crowd + "/habits")
    rows = driver.find_elements(By.CSS_SELECTOR, ".habit-row")
    assert len(rows) == 100
    nav = driver.find_element(By.CSS_SELECTOR, 'nav.pager[aria-label="Pages of habits"]')
    assert current_page(driver) == "1"
    first = {row.find_element(By.CSS_SELECTOR, ".habit-name").text for row in rows}
    screenshot(driver, f"habits-paging-{'js' if javascript else 'no-js'}")
    nav.find_element(By.CSS_SELECTOR, 'a[rel="next"]').click()
    wait_until(lambda: driver.current_url.endswith("/habits?page=2"), message="page 2")
    assert current_page(driver) == "2"
    rows = driver.find_elements(By.CSS_SELECTOR, ".habit-row")
    second = [row.find_element(By.CSS_SELECTOR, ".habit-name").text for row in rows]
    assert len(second) == 100 and not set(second) & first
    # Every row sits under a heading, also where a category continues from page 1.
    assert driver.find_elements(By.CSS_SELECTOR, ".habit-section h2")

    # Favouriting a habit on page 2 comes back to page 2 (the habit itself moves to Favorites on page 1).
    name = second[5]
    rows[5].find_element(By.CSS_SELECTOR, "form[data-toggle=favorite] button").click()
    # Done when the habit has left page 2: without JavaScript the redirect loads page 2 again; with it the address
    # never leaves page 2, and the list is replaced only once the toggle is answered.
    wait_until(lambda: "page=2" in driver.current_url and current_page(driver) == "2"
               and name not in [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".habit-row .habit-name")],
               message="page 2 without the new favourite")
    driver.get(habits_crowd + "/habits")
    favorites = driver.find_elements(By.CSS_SELECTOR, ".habit-row.is-favorite .habit-name")
    assert name in [element.text for element in favorites]
    # Undo, so the other parametrisation starts from the same list.
    for row in driver.find_elements(By.CSS_SELECTOR, ".habit-row.is-favorite"):
        if row.find_element(By.CSS_SELECTOR, ".habit-name").text == name:
            row.find_element(By.CSS_SELECTOR, "form[data-toggle=favorite] button").click()
            break
    wait_until(lambda: name not in [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".is-favorite .habit-name")],
               message="the favourite removed")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_logging_from_page_two_of_log_habit_comes_back_to_it(habits_crowd, browser, browser_without_js, javascript):
    driver = browser if javascript else browser_without_js
    driver.get(habits_crowd + "/log?page=2")
    assert current_page(driver) == "2"
    assert driver.find_element(By.CSS_SELECTOR, 'nav.pager[aria-label="Pages of habits to log"]')
    buttons = driver.find_elements(By.CSS_SELECTOR, "form[data-log] button")
    assert len(buttons) == 100
    name = buttons[7].find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, 'input[name="habit"]') \
        .get_attribute("value")
    buttons[7].click()
    wait_until(lambda: "Logged" in driver.find_element(By.CSS_SELECTOR, "#main").text, message="the confirmation")
    assert name in driver.find_element(By.CSS_SELECTOR, ".notice-success").text
    assert current_page(driver) == "2"
    screenshot(driver, f"log-paging-{'js' if javascript else 'no-js'}")


def test_a_page_past_the_last_of_habits_is_a_clear_404(habits_crowd, browser):
    browser.get(habits_crowd + "/habits?page=9")
    assert "There is no page 9 of habits" in browser.page_source
    browser.get(habits_crowd + "/log?page=zero")
    assert "A page is a number from 1" in browser.page_source
