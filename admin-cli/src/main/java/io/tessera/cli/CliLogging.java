package io.tessera.cli;

import java.util.List;

/**
 * How log lines look to a user of a client command: plain, on stderr, as {@code tessera: warning:
 * ...} with no logger names, thread names or levels in brackets; nothing but errors with {@code
 * -q}. Servers and {@code tessera local} keep the log format of {@code simplelogger.properties}
 * (their lines go to log files, where a logger name helps).
 */
final class CliLogging {
  private CliLogging() {}

  /** Sets the logger's properties for the command {@code args} run; before any logger exists. */
  static void configure(String... args) {
    String command = args.length == 0 ? "" : args[0];
    if (command.equals("server") || command.equals("local")) {
      return;
    }
    List<String> all = List.of(args);
    boolean quiet = all.contains("-q") || all.contains("--quiet");
    set("org.slf4j.simpleLogger.defaultLogLevel", quiet ? "error" : "warn");
    set("org.slf4j.simpleLogger.showShortLogName", "false");
    set("org.slf4j.simpleLogger.showLogName", "false");
    set("org.slf4j.simpleLogger.showThreadName", "false");
    set("org.slf4j.simpleLogger.levelInBrackets", "false");
    set("org.slf4j.simpleLogger.warnLevelString", "tessera: warning:");
    set("org.slf4j.simpleLogger.errorLevelString", "tessera: error:");
  }

  /** A -D given on the java command line wins. */
  private static void set(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
