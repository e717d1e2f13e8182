package io.tessera.cli.server;

import io.tessera.common.config.Config;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A server's {@code --config} file, one properties file per server as an installed cluster keeps
 * them: {@code tessera.*} keys are settings, and every other key is one of the command's flags by
 * its long name without the dashes ({@code id=ds-1}, {@code bind-host=0.0.0.0}). A flag given on
 * the command line wins over the file.
 */
public final class ServerConfigFile implements IDefaultValueProvider {
  /** The flag naming the file; {@code --conf} is its older spelling. */
  static final String[] NAMES = {"--config", "--conf"};

  private final Path file;
  private final Map<String, String> flags = new HashMap<>();
  private final Map<String, String> settings = new HashMap<>();

  /**
   * Reads {@code file}.
   *
   * @throws IllegalArgumentException when it cannot be read
   */
  static ServerConfigFile read(Path file) {
    return new ServerConfigFile(file);
  }

  private ServerConfigFile(Path file) {
    this.file = file;
    Config.fileSettings(file)
        .forEach((k, v) -> (k.startsWith("tessera.") ? settings : flags).put(k, v.trim()));
  }

  /**
   * Lets {@code cl} take its flags' defaults from the {@code --config} file {@code args} name, if
   * they name one.
   *
   * @throws IllegalArgumentException when the file cannot be read
   */
  public static void install(CommandLine cl, String... args) {
    Path file = named(args);
    if (file != null) {
      cl.setDefaultValueProvider(read(file));
    }
  }

  /** The file after {@code --config FILE} or {@code --config=FILE}; null without one. */
  static Path named(String... args) {
    for (int i = 0; i < args.length; i++) {
      for (String name : NAMES) {
        if (args[i].equals(name) && i + 1 < args.length) {
          return Path.of(args[i + 1]);
        }
        if (args[i].startsWith(name + "=")) {
          return Path.of(args[i].substring(name.length() + 1));
        }
      }
    }
    return null;
  }

  /** The file's settings ({@code tessera.*} keys). */
  Map<String, String> settings() {
    return Map.copyOf(settings);
  }

  /**
   * Refuses a key of the file that is neither a setting nor a flag of {@code command}: a misspelt
   * key would otherwise be ignored without a word.
   */
  void requireFlagsOf(CommandSpec command) {
    for (String key : flags.keySet()) {
      OptionSpec option = command.findOption("--" + key);
      if (option == null || key.equals("config") || key.equals("conf")) {
        throw new IllegalArgumentException(
            file
                + ": '"
                + key
                + "' is neither a flag of '"
                + command.qualifiedName()
                + "' (see its --help; write a flag without its dashes) nor a setting (tessera.*)");
      }
    }
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    if (arg instanceof OptionSpec option && option.longestName().startsWith("--")) {
      return flags.get(option.longestName().substring(2));
    }
    return null;
  }

  @Override
  public String toString() {
    return file.toString();
  }
}
