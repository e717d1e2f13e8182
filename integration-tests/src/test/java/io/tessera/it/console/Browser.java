package io.tessera.it.console;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven through Debian's chromedriver: both named explicitly so that
 * Selenium never looks for (or downloads) a browser or a driver of its own.
 */
final class Browser {
  static final String CHROMIUM = "/usr/bin/chromium";
  static final String CHROMEDRIVER = "/usr/bin/chromedriver";

  private Browser() {}

  static ChromeDriver start(Path profile) throws IOException {
    for (String exe : new String[] {CHROMIUM, CHROMEDRIVER}) {
      if (!Files.isExecutable(Path.of(exe))) {
        throw new IllegalStateException(
            exe + " is missing: install Debian's chromium and chromium-driver (see .ci/run)");
      }
    }
    Files.createDirectories(profile);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1400,1000",
        "--user-data-dir=" + profile.toAbsolutePath());
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER))
            .usingAnyFreePort()
            .build();
    return new ChromeDriver(service, options);
  }
}
