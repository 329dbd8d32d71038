package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.TestDirectories;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live dashboard in a real browser (Debian's chromium, headless, through its chromedriver) against the whole
 * stack: once one node has warmed the path, nodes driven over the Ironic API show up in the counts and the feed
 * within a second, a node's timeline lists its transitions, and the page reconnects and rebuilds its view after
 * the dashboard service is killed.
 * Leaves target/dashboard.png for a person to look at. Runs on the {@link SharedStack}: its counts are read
 * before and after, never assumed from an empty stack.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.class)
@Order(1)
class DashboardBrowserTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** The promise: a change is on the page within a second of the API answering it. */
    private static final Duration LIVE = Duration.ofSeconds(1);

    /** The browser's profile; the stack's own data directory is the shared stack's. */
    private final Path dataDir = Path.of("target", "dashboard-test-" + UUID.randomUUID()).toAbsolutePath();
    private RunningStack stack;
    private WebDriver browser;

    @BeforeAll
    void up(RunningStack shared) throws Exception {
        stack = shared;
        Files.createDirectories(dataDir);
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless=new",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1400,900",
                "--user-data-dir=" + Files.createTempDirectory(dataDir, "chromium-profile"));
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(driver, options);
    }

    @AfterAll
    void down() {
        if (browser != null) {
            browser.quit();
        }
        TestDirectories.deleteRecursively(dataDir);
    }

    @Test
    void nodesMoveLiveOnThePageAndThePageSurvivesARestartOfItsService() throws Exception {
        browser.get("http://127.0.0.1:" + stack.ports.get("dashboard") + "/");
        waitFor(Duration.ofSeconds(30)).until(ExpectedConditions.textToBe(By.id("connection"), "live"));

        // The promise is for a running stack. The stack's first event pays for cold JVMs (schema lookups, first
        // fetches, the interpreter) on every hop, which on a slow machine takes longer than the second allowed:
        // one node goes through first, with time to spare.
        String warmUp = "dash-warm-" + UUID.randomUUID().toString().substring(0, 8);
        assertEquals(201, send("POST", "/v1/nodes", "{\"driver\": \"fake-hardware\", \"name\": \"" + warmUp + "\"}"));
        By warmUpLine = By.cssSelector("#feed li[data-node='" + uuidOf(warmUp) + "']");
        waitFor(Duration.ofSeconds(30)).until(ExpectedConditions.presenceOfElementLocated(warmUpLine));

        String name = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        // The shared stack may hold other classes' nodes: the page must show the API's counts plus this node.
        int enroll = apiCount("enroll");
        int manageable = apiCount("manageable");
        int available = apiCount("available");
        assertEquals(201, send("POST", "/v1/nodes", "{\"driver\": \"fake-hardware\", \"name\": \"" + name + "\"}"));
        waitFor(LIVE).until(page -> count("enroll") == enroll + 1);
        // This node's lines of the feed (other nodes' may be there too).
        By feed = By.cssSelector("#feed li[data-node='" + uuidOf(name) + "']");
        waitFor(LIVE).ignoring(StaleElementReferenceException.class).until(page -> page.findElements(feed).stream().anyMatch(e -> e.getText().contains("(new) \u2192 enroll")));

        assertEquals(202, send("PUT", "/v1/nodes/" + name + "/states/provision", "{\"target\": \"manage\"}"));
        // manage passes through verifying; the page follows the conductor, not the request.
        waitFor(Duration.ofSeconds(10)).until(page -> count("manageable") == manageable + 1);
        waitFor(LIVE).ignoring(StaleElementReferenceException.class)
                .until(page -> page.findElements(feed).stream().anyMatch(e -> e.getText().contains("\u2192 manageable")));

        // The table is redrawn as ticks arrive: a row found just before a redraw is stale, so find it again.
        By row = By.xpath("//tbody/tr[td[1]='" + name + "']");
        waitFor(LIVE).ignoring(StaleElementReferenceException.class).until(page -> {
            page.findElement(row).click();
            return true;
        });
        waitFor(Duration.ofSeconds(5)).until(ExpectedConditions.textToBePresentInElementLocated(By.id("timeline"), "(new) \u2192 enroll"));
        assertTrue(browser.findElement(By.id("timeline")).getText().contains("\u2192 manageable"));
        screenshot("dashboard.png");

        // Kill the dashboard service: the launcher restarts it, the page reconnects and rebuilds from the topics.
        RunningStack.signal("KILL", stack.service("deploy/dashboard").pid());
        waitFor(Duration.ofSeconds(30)).until(ExpectedConditions.textToBe(By.id("connection"), "reconnecting"));
        waitFor(Duration.ofSeconds(120)).until(ExpectedConditions.textToBe(By.id("connection"), "live"));
        waitFor(Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.xpath("//tbody/tr[td[1]='" + name + "']")));
        assertEquals(202, send("PUT", "/v1/nodes/" + name + "/states/provision", "{\"target\": \"provide\"}"));
        waitFor(Duration.ofSeconds(10)).until(page -> count("available") == available + 1
                && count("manageable") == manageable);
        screenshot("dashboard-after-restart.png");
    }

    /**
     * The page's count of nodes in {@code state} (its card's bold number): 0 when it has no card for that state;
     * -1 while the summary is being redrawn (a card found just before is stale), so a wait reads it again.
     */
    private int count(String state) {
        var cards = browser.findElements(By.cssSelector(".count[data-state='" + state + "'] b"));
        try {
            return cards.isEmpty() ? 0 : Integer.parseInt(cards.get(0).getText().trim());
        } catch (StaleElementReferenceException e) {
            return -1;
        }
    }

    private String uuidOf(String name) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(stack.api() + "/v1/nodes/" + name))
                .header("X-OpenStack-Ironic-API-Version", "latest").build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body()).get("uuid").asText();
    }

    /** How many nodes the Ironic API lists in {@code state}. */
    private int apiCount(String state) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(stack.api() + "/v1/nodes?provision_state="
                + state.replace(" ", "%20"))).header("X-OpenStack-Ironic-API-Version", "latest").build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body()).get("nodes").size();
    }

    private WebDriverWait waitFor(Duration timeout) {
        WebDriverWait wait = new WebDriverWait(browser, timeout, Duration.ofMillis(50));
        return wait;
    }

    private void screenshot(String file) throws Exception {
        Path shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, Path.of("target", file), StandardCopyOption.REPLACE_EXISTING);
    }

    private int send(String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(stack.api() + path))
                .header("X-OpenStack-Ironic-API-Version", "latest").header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
