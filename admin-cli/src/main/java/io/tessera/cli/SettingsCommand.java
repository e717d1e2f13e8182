package io.tessera.cli;

import io.tessera.client.ClientConfigKeys;
import io.tessera.common.config.Config;
import io.tessera.common.config.ConfigKey;
import io.tessera.common.config.ConfigSection;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.common.config.SecurityConfigKeys;
import io.tessera.common.metrics.MetricsConfigKeys;
import io.tessera.data.server.DataServerConfigKeys;
import io.tessera.meta.server.MetaServerConfigKeys;
import io.tessera.nfs.NfsConfigKeys;
import io.tessera.qos.QosConfigKeys;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tessera settings}: every setting a process reads, with its default and what it does. */
@Command(
    name = "settings",
    mixinStandardHelpOptions = true,
    description = {
      "Every setting, with its default and what it does.",
      "Servers take them as -DKEY=VALUE or in a --conf properties file; commands that talk to a cluster "
          + "take the client's as -DKEY=VALUE."
    })
public final class SettingsCommand implements Callable<Integer> {
  /** Who reads a group of settings. */
  public enum Group {
    client,
    meta,
    data,
    qos,
    nfs;

    /** This process's own settings, by subsystem. */
    List<ConfigSection> sections() {
      return switch (this) {
        case client -> ClientConfigKeys.SECTIONS;
        case meta -> MetaServerConfigKeys.SECTIONS;
        case data -> DataServerConfigKeys.SECTIONS;
        case qos -> QosConfigKeys.SECTIONS;
        case nfs -> NfsConfigKeys.SECTIONS;
      };
    }

    /**
     * Every setting this process reads: its own, the RPC layer's and security's, which every
     * process has, and every server's metrics settings.
     */
    List<ConfigKey<?>> keys() {
      if (this == client) {
        return ClientConfigKeys.READ_BY_CLIENTS;
      }
      List<ConfigKey<?>> keys = new ArrayList<>(ConfigSection.keysOf(sections()));
      if (this == data) {
        keys.addAll(QosConfigKeys.ALL); // tessera.qos.placement=embedded schedules in the server
      }
      keys.addAll(RpcConfigKeys.ALL);
      keys.addAll(SecurityConfigKeys.ALL);
      keys.addAll(MetricsConfigKeys.SECTION.keys());
      return keys;
    }
  }

  @Parameters(
      arity = "0..1",
      paramLabel = "GROUP",
      description = "client, meta, data, qos or nfs (default: all five)")
  Group group;

  @Spec CommandSpec spec;

  /**
   * Refuses the first of {@code keys} that no process of {@code readers} reads (a misspelt key
   * would otherwise be ignored without a word), naming who reads what; {@code source} says where
   * the key came from ({@code "-D"}, {@code "FILE: "}).
   *
   * @throws IllegalArgumentException naming the key, for {@code tessera} to print as one line
   */
  public static void requireKnown(
      String source, Collection<String> keys, String role, Group... readers) {
    for (String key : keys) {
      boolean known = false;
      for (Group g : readers) {
        known |= g.keys().stream().anyMatch(k -> k.key().equals(key));
      }
      if (!known) {
        StringBuilder lists = new StringBuilder();
        for (Group g : readers) {
          lists.append(lists.length() == 0 ? "" : ", ").append("tessera settings ").append(g);
        }
        throw new IllegalArgumentException(
            source
                + key
                + " is not a "
                + role
                + " setting ("
                + lists
                + (readers.length > 1 ? " list them)" : " lists them)"));
      }
    }
  }

  /**
   * Refuses a key no server reads. One setting list serves every server of a cluster (a shared
   * --conf file, tessera local's -D), so either kind of server accepts the other's keys.
   */
  public static void requireServerSettings(String source, Collection<String> keys) {
    // a gateway is also a client: its client settings are server settings too
    requireKnown(
        source, keys, "server", Group.meta, Group.data, Group.qos, Group.nfs, Group.client);
  }

  /** Refuses a server setting whose value does not parse, before any server starts. */
  public static void requireValidServerSettings(Config config) {
    // a key several processes read (the RPC layer's, the QoS keys a data server also reads) once
    Set<ConfigKey<?>> keys = new LinkedHashSet<>(Group.meta.keys());
    keys.addAll(Group.data.keys());
    keys.addAll(Group.qos.keys());
    keys.addAll(Group.nfs.keys());
    config.requireValid(keys);
  }

  @picocli.CommandLine.Option(
      names = "--json",
      description =
          "print JSON for scripts: per group, each key with its " + "default and description")
  boolean json;

  @picocli.CommandLine.Option(
      names = "--markdown",
      description =
          "print docs/configuration.md (the repository's copy "
              + "is checked against it by a test)")
  boolean markdown;

  private static void markdownTable(StringBuilder b, ConfigSection section) {
    b.append("\n### ")
        .append(section.title())
        .append("\n\n| key | default | what it does |\n|---|---|---|\n");
    for (ConfigKey<?> k : section.keys()) {
      b.append("| `")
          .append(k.key())
          .append("` | `")
          .append(k.describeDefault())
          .append("` | ")
          .append(k.doc().replace("|", "\\|"))
          .append(" |\n");
    }
  }

  /** The whole of docs/configuration.md. */
  static String markdown() {
    StringBuilder b =
        new StringBuilder("# Configuration\n\n")
            .append(
                "Every setting, its default and what it does; generated by `./tessera settings --markdown` (a test\n")
            .append(
                "fails when this file is out of date). Servers take settings as `-DKEY=VALUE` or in a `--conf FILE`\n")
            .append(
                "properties file (`tessera local -DKEY=VALUE` passes one to every server); commands that talk to a\n")
            .append(
                "cluster take the client's as `-DKEY=VALUE`. A key that nobody reads is refused. Sizes are written\n")
            .append("like 64K, 8M or 1G, durations like 500ms, 30s or 10m.\n");
    for (Group g : Group.values()) {
      b.append("\n## ").append(g).append(" settings\n");
      g.sections().forEach(section -> markdownTable(b, section));
    }
    b.append("\n## settings every process reads\n");
    markdownTable(b, RpcConfigKeys.SECTION);
    markdownTable(b, SecurityConfigKeys.SECTION);
    b.append("\n## settings every server reads\n");
    markdownTable(b, MetricsConfigKeys.SECTION);
    return b.toString();
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Group[] groups = group == null ? Group.values() : new Group[] {group};
    if (markdown) {
      out.print(markdown());
      out.flush();
      return 0;
    }
    if (json) {
      Map<String, List<Map<String, String>>> doc = new LinkedHashMap<>();
      for (Group g : groups) {
        List<Map<String, String>> rows = new ArrayList<>();
        for (ConfigKey<?> k : g.keys()) {
          Map<String, String> row = new LinkedHashMap<>();
          row.put("key", k.key());
          row.put("default", k.describeDefault());
          row.put("description", k.doc());
          rows.add(row);
        }
        doc.put(g.name(), rows);
      }
      out.println(
          new com.fasterxml.jackson.databind.ObjectMapper()
              .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
              .writeValueAsString(doc));
      out.flush();
      return 0;
    }
    for (Group g : groups) {
      out.printf("%s settings:%n", g);
      for (ConfigKey<?> k : g.keys()) {
        out.printf("  %s = %s%n      %s%n", k.key(), k.describeDefault(), k.doc());
      }
    }
    out.flush();
    return 0;
  }
}
