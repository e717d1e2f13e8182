package io.tessera.cli;

import io.tessera.client.ClientConfigKeys;
import io.tessera.common.config.ConfigKey;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.data.server.DataServerConfigKeys;
import io.tessera.meta.server.MetaServerConfigKeys;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tessera settings}: every setting a process reads, with its default and what it does. */
@Command(name = "settings", mixinStandardHelpOptions = true,
    description = {"Every setting, with its default and what it does.",
        "Servers take them as -DKEY=VALUE or in a --conf properties file; commands that talk to a cluster "
            + "take the client's as -DKEY=VALUE."})
public final class SettingsCommand implements Callable<Integer> {
  /** Who reads a group of settings. */
  public enum Group {
    client, meta, data;

    List<ConfigKey<?>> keys() {
      List<ConfigKey<?>> keys = new ArrayList<>(switch (this) {
        case client -> ClientConfigKeys.ALL;
        case meta -> MetaServerConfigKeys.ALL;
        case data -> DataServerConfigKeys.ALL;
      });
      keys.addAll(RpcConfigKeys.ALL);   // every process talks over the same RPC layer
      return keys;
    }
  }

  @Parameters(arity = "0..1", paramLabel = "GROUP", description = "client, meta or data (default: all three)")
  Group group;

  @Spec
  CommandSpec spec;

  /**
   * Refuses the first of {@code keys} that no process of {@code readers} reads (a misspelt key
   * would otherwise be ignored without a word), naming who reads what; {@code source} says where
   * the key came from ({@code "-D"}, {@code "FILE: "}).
   *
   * @throws IllegalArgumentException naming the key, for {@code tessera} to print as one line
   */
  public static void requireKnown(String source, java.util.Collection<String> keys, String role, Group... readers) {
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
        throw new IllegalArgumentException(source + key + " is not a " + role + " setting (" + lists + " lists them)");
      }
    }
  }

  /**
   * Refuses a key no server reads. One setting list serves every server of a cluster (a shared
   * --conf file, tessera local's -D), so either kind of server accepts the other's keys.
   */
  public static void requireServerSettings(String source, java.util.Collection<String> keys) {
    requireKnown(source, keys, "server", Group.meta, Group.data);
  }

  @picocli.CommandLine.Option(names = "--json", description = "print JSON for scripts: per group, each key with its "
      + "default and description")
  boolean json;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Group[] groups = group == null ? Group.values() : new Group[] {group};
    if (json) {
      java.util.Map<String, List<java.util.Map<String, String>>> doc = new java.util.LinkedHashMap<>();
      for (Group g : groups) {
        List<java.util.Map<String, String>> rows = new ArrayList<>();
        for (ConfigKey<?> k : g.keys()) {
          java.util.Map<String, String> row = new java.util.LinkedHashMap<>();
          row.put("key", k.key());
          row.put("default", k.describeDefault());
          row.put("description", k.doc());
          rows.add(row);
        }
        doc.put(g.name(), rows);
      }
      out.println(new com.fasterxml.jackson.databind.ObjectMapper()
          .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
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
