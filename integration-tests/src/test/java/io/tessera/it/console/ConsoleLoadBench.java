package io.tessera.it.console;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.common.security.Credentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A benchmark program (not a test): how long the console takes to show a cluster holding FILES
 * files in one directory and SNAPSHOTS snapshots, in headless Chromium, and how long its API calls
 * take. Fills the cluster first where it has less.
 *
 * <p>Run: {@code java -cp CLASSPATH io.tessera.it.console.ConsoleLoadBench META_ADDRESSES
 * CONSOLE_URL TOKEN_FILE [FILES] [SNAPSHOTS] [RUNS]} (see docs/benchmarks/*-console.sh).
 */
public final class ConsoleLoadBench {
  private static final String DIR = "/load";

  public static void main(String[] args) throws Exception {
    String meta = args[0];
    String url = args[1].endsWith("/") ? args[1] : args[1] + "/";
    String token = Files.readString(Path.of(args[2])).trim();
    int files = args.length > 3 ? Integer.parseInt(args[3]) : 100_000;
    int snapshots = args.length > 4 ? Integer.parseInt(args[4]) : 100;
    int runs = args.length > 5 ? Integer.parseInt(args[5]) : 5;
    // the admin credentials of the cluster (beside its console token, in the cluster's directory)
    Path credentials = Path.of(args[2]).resolveSibling("admin.credentials");
    try (TesseraFileSystem fs = TesseraFileSystem.connect(meta, Credentials.load(credentials))) {
      fill(fs, files, snapshots);
    }
    apiTimes(url, token, runs * 4);
    pageTimes(url, token, runs);
  }

  private static void fill(TesseraFileSystem fs, int files, int snapshots) throws Exception {
    fs.mkdirs(DIR);
    int have = 0;
    String after = "";
    while (true) {
      var page = io.tessera.client.Futures.get(fs.async().list(DIR, after, 1000));
      have += page.entries().size();
      if (!page.more()) {
        break;
      }
      after = page.lastName();
    }
    if (have < files) {
      long t0 = System.nanoTime();
      int threads = 32;
      AtomicInteger next = new AtomicInteger(have);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < files; i = next.getAndIncrement()) {
                    fs.createFile(String.format("%s/f-%07d", DIR, i), CreateOptions.defaults())
                        .close();
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      System.out.printf(
          Locale.ROOT,
          "created %d files in %s in %.1f s%n",
          files - have,
          DIR,
          (System.nanoTime() - t0) / 1e9);
    }
    List<SnapshotInfo> existing = fs.admin().snapshots().list();
    for (int i = existing.size(); i < snapshots; i++) {
      fs.admin().snapshots().create(String.format("load-%03d", i));
    }
    System.out.printf(
        Locale.ROOT,
        "cluster holds %d files in %s and %d snapshots%n",
        Math.max(have, files),
        DIR,
        fs.admin().snapshots().list().size());
  }

  /** Median and 90th percentile of each API call, in ms, measured with the JDK's HTTP client. */
  private static void apiTimes(String url, String token, int n) throws Exception {
    ConsoleHttp api = new ConsoleHttp(url);
    String last = String.format("f-%07d", 99_800);
    for (String call :
        List.of(
            "/api/v1/cluster",
            "/api/v1/servers",
            "/api/v1/history",
            "/api/v1/snapshots?limit=100",
            "/api/v1/files?path=" + DIR + "&limit=200",
            "/api/v1/files?path=" + DIR + "&limit=200&after=" + last,
            "/api/v1/audit?limit=200")) {
      double[] ms = new double[n];
      for (int i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        ConsoleHttp.Reply r = api.get(call, token);
        ms[i] = (System.nanoTime() - t0) / 1e6;
        if (r.status() != 200) {
          throw new IllegalStateException(call + " answered " + r.status() + ": " + r.body());
        }
      }
      Arrays.sort(ms);
      System.out.printf(
          Locale.ROOT,
          "api %-52s median %6.1f ms  p90 %6.1f ms  (%d calls)%n",
          call,
          ms[n / 2],
          ms[(int) Math.min(n - 1, Math.ceil(n * 0.9) - 1)],
          n);
    }
  }

  /**
   * Per run, in a fresh browser: the page's first contentful paint, the time from signing in to a
   * full overview (every data server listed, health shown), to the first page of the FILES-entry
   * directory, and to the snapshot list.
   */
  private static void pageTimes(String url, String token, int runs) throws Exception {
    for (int run = 1; run <= runs; run++) {
      Path profile = Files.createTempDirectory("console-bench");
      ChromeDriver b = Browser.start(profile);
      try {
        // polled every 5 ms: the default 500 ms would round every time up to it
        WebDriverWait wait = new WebDriverWait(b, Duration.ofSeconds(60), Duration.ofMillis(5));
        b.get(url);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
        double load =
            ((Number)
                    b.executeScript(
                        "return performance.getEntriesByType('navigation')[0].loadEventEnd;"))
                .doubleValue();
        Object paint =
            b.executeScript(
                "const p = performance.getEntriesByName('first-contentful-paint')[0];"
                    + " return p ? p.startTime : -1;");
        b.findElement(By.id("token-input")).sendKeys(token);
        long t1 = System.nanoTime();
        b.findElement(By.id("sign-in")).click();
        wait.until(
            d ->
                !d.findElements(By.cssSelector("#overview-servers tbody tr")).isEmpty()
                        && !d.findElement(By.id("health")).getText().isEmpty()
                    ? true
                    : null);
        double overview = (System.nanoTime() - t1) / 1e6;

        b.findElement(By.cssSelector("#tabs button[data-tab='files']")).click();
        WebElement path = b.findElement(By.id("files-path"));
        path.clear();
        long t2 = System.nanoTime();
        path.sendKeys(DIR + "\n");
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#files tr[data-path='" + DIR + "/f-0000000']")));
        double filesPage = (System.nanoTime() - t2) / 1e6;

        long t3 = System.nanoTime();
        b.findElement(By.cssSelector("#tabs button[data-tab='snapshots']")).click();
        wait.until(
            d -> d.findElements(By.cssSelector("#snapshots tbody tr")).size() >= 100 ? true : null);
        double snapshotsTab = (System.nanoTime() - t3) / 1e6;

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> api =
            (List<Map<String, Object>>)
                b.executeScript(
                    "return performance.getEntriesByType('resource')"
                        + ".filter(e => e.name.includes('/api/v1/'))"
                        + ".map(e => ({name: e.name.replace(/^.*\\/api\\/v1\\//, ''), ms: e.duration}));");
        StringBuilder calls = new StringBuilder();
        for (Map<String, Object> e : api) {
          calls.append(
              String.format(
                  Locale.ROOT, " %s=%.0f", e.get("name"), ((Number) e.get("ms")).doubleValue()));
        }
        System.out.printf(
            Locale.ROOT,
            "page run %d: loaded (loadEventEnd) %.0f ms, first contentful paint %.0f ms, sign-in to overview %.0f"
                + " ms, %s first page %.0f ms, snapshots tab (100) %.0f ms; browser API times (ms):%s%n",
            run,
            load,
            ((Number) paint).doubleValue(),
            overview,
            DIR,
            filesPage,
            snapshotsTab,
            calls);
      } finally {
        b.quit();
      }
    }
  }
}
