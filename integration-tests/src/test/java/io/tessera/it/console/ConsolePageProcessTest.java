package io.tessera.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.it.ServerLaunchers;
import io.tessera.it.TestDirs;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console page in a real browser (headless Chromium) against a process-per-server cluster: an
 * operator signs in with a token, sees every data server, takes a snapshot, restores one file
 * through the confirmation dialog (cancelling first changes nothing), and sees a data server that
 * was killed turn DOWN without reloading. The last test kills a server, so the order is fixed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsolePageProcessTest {
  static final Duration WAIT = Duration.ofSeconds(30);
  static ProcessCluster cluster;
  static ClusterPlan plan;
  static TesseraFileSystem fs;
  static ChromeDriver browser;

  @BeforeAll
  static void start() throws Exception {
    plan = new ClusterPlan(TestDirs.fresh("console-page"), 1, 4, TestPorts.freeBase(30)).withHttp();
    cluster =
        ProcessCluster.start(
            plan, ServerLaunchers.defaults(), List.of("-Dtessera.meta.data-server-timeout=4s"));
    cluster.awaitReady(Duration.ofSeconds(120));
    fs = TesseraFileSystem.connect(plan.clientConfig());
    String token = fs.admin().console().createToken("page-admin", true).bearer();
    browser = Browser.start(plan.dir().resolve("chromium-profile"));
    browser.get(plan.consoleUrl());
    browser.findElement(By.id("token-input")).sendKeys(token);
    browser.findElement(By.id("sign-in")).click();
    waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "page-admin"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  static <T> T waitFor(java.util.function.Function<? super org.openqa.selenium.WebDriver, T> what) {
    return new WebDriverWait(browser, WAIT).until(what);
  }

  static void tab(String name) {
    browser.findElement(By.cssSelector("#tabs button[data-tab='" + name + "']")).click();
  }

  /** A data server's state on the overview. */
  /** How many times the page has refreshed its current tab by itself. */
  static int refreshes() {
    String n = browser.findElement(By.id("app")).getDomAttribute("data-refreshes");
    return n == null ? 0 : Integer.parseInt(n);
  }

  static String stateOf(String server) {
    return waitFor(
        textOf(By.cssSelector("#overview-servers tr[data-server='" + server + "'] td.state")));
  }

  /**
   * The text of what {@code where} finds, to wait for. The page redraws its tables and charts every
   * 2 s, so an element found may be replaced before its text is read: then it is found and read
   * again.
   */
  static java.util.function.Function<org.openqa.selenium.WebDriver, String> textOf(By where) {
    return d -> {
      try {
        return d.findElement(where).getText();
      } catch (StaleElementReferenceException redrawn) {
        return null;
      }
    };
  }

  @Test
  @Order(1)
  void theOverviewShowsEveryDataServerUp() throws Exception {
    tab("overview");
    waitFor(
        d ->
            d.findElements(By.cssSelector("#overview-servers tbody tr")).size() == 4 ? true : null);
    for (String id : plan.dataIds()) {
      assertThat(stateOf(id)).isEqualTo("UP");
    }
    waitFor(ExpectedConditions.textToBe(By.id("health"), "OK"));
    assertThat(browser.findElement(By.id("capacity")).getText())
        .contains("free of")
        .contains("on one filesystem, shared by");
    // writes until the throughput chart shows them (heartbeats carry the rates), then the
    // screenshot users see in the README
    fs.mkdirs("/warm");
    AtomicBoolean charted = new AtomicBoolean();
    Thread writer =
        new Thread(
            () -> {
              for (int i = 0; !charted.get() && i < 600; i++) {
                try (OutputStream out =
                    fs.create("/warm/" + i + ".bin", CreateOptions.erasure(2, 1))) {
                  out.write(new byte[1 << 20]);
                } catch (Exception e) {
                  return;
                }
              }
            });
    writer.start();
    try {
      waitFor(
          d -> {
            String label = textOf(By.cssSelector("#chart-bytes text")).apply(d);
            return label != null && label.contains("MiB/s") ? true : null;
          });
    } finally {
      charted.set(true);
      writer.join();
    }
    Path shot = Path.of("target", "screenshots", "console-overview.png");
    Files.createDirectories(shot.getParent());
    Files.copy(
        browser.getScreenshotAs(OutputType.FILE).toPath(),
        shot,
        StandardCopyOption.REPLACE_EXISTING);
    assertThat(Files.size(shot)).isGreaterThan(10_000);
  }

  @Test
  @Order(2)
  void everyTabShowsItsDataAndTheFileBrowserShowsLayouts() throws Exception {
    for (String t : List.of("servers", "recovery", "qos", "events", "audit", "overview")) {
      tab(t);
      waitFor(
          ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#tab-" + t + " table")));
      assertThat(browser.findElement(By.id("error")).isDisplayed()).as(t).isFalse();
    }
    tab("servers");
    waitFor(
        d -> d.findElements(By.cssSelector("#data-servers tbody tr")).size() == 4 ? true : null);
    tab("files");
    WebElement path = browser.findElement(By.id("files-path"));
    path.clear();
    path.sendKeys("/warm\n");
    WebElement first =
        waitFor(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#files tr[data-path='/warm/0.bin']")));
    assertThat(first.getText()).contains("RS 2+1").contains("1.0 MiB");
  }

  @Test
  @Order(3)
  void aSnapshotCreatedOnThePageIsListed() throws Exception {
    tab("snapshots");
    browser.findElement(By.id("snapshot-name")).sendKeys("from-the-page");
    browser.findElement(By.id("snapshot-create")).click();
    waitFor(
        ExpectedConditions.presenceOfElementLocated(
            By.cssSelector("#snapshots tr[data-snapshot='from-the-page']")));
    assertThat(fs.admin().snapshots().list()).anyMatch(s -> s.name().equals("from-the-page"));
  }

  @Test
  @Order(4)
  void oneFileIsRestoredThroughTheConfirmDialogAndCancelChangesNothing() throws Exception {
    fs.mkdirs("/docs");
    write("/docs/plan.txt", "the plan, version 1");
    write("/docs/other.txt", "other, version 1");
    fs.admin().snapshots().create("before-edit");
    write("/docs/plan.txt", "the plan, version 2 (a mistake)");
    write("/docs/other.txt", "other, version 2");

    tab("snapshots");
    WebElement restore =
        waitFor(
            ExpectedConditions.elementToBeClickable(
                By.cssSelector("#snapshots tr[data-snapshot='before-edit'] button.restore")));
    restore.click();
    waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
    WebElement path = browser.findElement(By.id("confirm-path"));
    path.clear();
    path.sendKeys("/docs/plan.txt");
    browser.findElement(By.id("confirm-cancel")).click();
    waitFor(ExpectedConditions.invisibilityOfElementLocated(By.id("confirm")));
    assertThat(read("/docs/plan.txt")).isEqualTo("the plan, version 2 (a mistake)");

    browser
        .findElement(By.cssSelector("#snapshots tr[data-snapshot='before-edit'] button.restore"))
        .click();
    waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
    assertThat(browser.findElement(By.id("confirm-title")).getText()).contains("before-edit");
    path = browser.findElement(By.id("confirm-path"));
    path.clear();
    path.sendKeys("/docs/plan.txt");
    browser.findElement(By.id("confirm-ok")).click();
    waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("error"), "Restored"));
    int refreshes = refreshes();
    waitFor(d -> refreshes() >= refreshes + 2 ? true : null);
    assertThat(browser.findElement(By.id("error")).getText())
        .as("the outcome stays on screen while the tab refreshes itself")
        .startsWith("Restored /docs/plan.txt from before-edit");
    assertThat(read("/docs/plan.txt")).isEqualTo("the plan, version 1");
    assertThat(read("/docs/other.txt")).isEqualTo("other, version 2");
    assertThat(fs.admin().console().audit(0, 10))
        .anyMatch(
            e ->
                e.action().equals("snapshot.restore")
                    && e.target().equals("before-edit:/docs/plan.txt")
                    && e.result().equals("ok"));
  }

  @Test
  @Order(5)
  void aKilledDataServerTurnsDownOnTheOverviewWithoutAReload() throws Exception {
    tab("overview");
    waitFor(d -> stateOf("ds-4").equals("UP") ? true : null);
    cluster.signal("ds-4", "KILL");
    new WebDriverWait(browser, Duration.ofSeconds(60))
        .until(d -> stateOf("ds-4").equals("DOWN") ? true : null);
    assertThat(browser.findElement(By.id("health")).getText()).isEqualTo("DEGRADED");
    assertThat(browser.findElement(By.id("problems")).getText()).contains("ds-4 is down");
    for (String id : List.of("ds-1", "ds-2", "ds-3")) {
      assertThat(stateOf(id)).isEqualTo("UP");
    }
  }

  private static void write(String path, String text) throws Exception {
    try (OutputStream out = fs.create(path, CreateOptions.erasure(2, 1).overwrite(true))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(String path) throws Exception {
    try (InputStream in = fs.open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
