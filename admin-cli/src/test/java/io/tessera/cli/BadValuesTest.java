package io.tessera.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * A script tells a typo from a refusal by the exit code: every malformed value is bad usage (exit
 * 2), refused before any cluster is asked. Commands that talk to a cluster are pointed at a port
 * nothing listens on, so one that asked first would exit 3 instead.
 */
class BadValuesTest {
  /** Nothing listens here: reaching for the cluster ends in "unreachable" (3), not 2. */
  private static final String NOWHERE = "127.0.0.1:1";

  @TempDir static Path dir;

  /**
   * One malformed value: the command, the words that follow it (DIR: a scratch directory; NOWHERE:
   * the address nothing listens on; '...' keeps spaces, '' is an empty word), and what the error
   * must say.
   */
  private record Case(String command, String says, String words) {
    @Override
    public String toString() {
      return command + " " + words;
    }

    List<String> line() {
      List<String> line = new ArrayList<>(Arrays.asList(command.split(" ")));
      Matcher m = WORD.matcher(words);
      while (m.find()) {
        String w = m.group(1) != null ? m.group(1) : m.group(2);
        line.add(w.equals("DIR") ? dir.toString() : w.equals("NOWHERE") ? NOWHERE : w);
      }
      return line;
    }
  }

  private static final Pattern WORD = Pattern.compile("'([^']*)'|(\\S+)");

  private static Case bad(String command, String says, String words) {
    return new Case(command, says, words);
  }

  static List<Case> cases() {
    return List.of(
        bad("local", "--data-servers must be 1 to 200", "--dir DIR --data-servers 0"),
        bad("local", "1, 3, 5 or 7", "--dir DIR --meta-replicas 2"),
        bad("local", "must be more than 0", "--dir DIR --ready-timeout 0"),
        bad("local", "--port-base 70000", "--dir DIR --port-base 70000"),
        bad("server data", "server id 'bad/id'", "--id bad/id --dir DIR --meta NOWHERE"),
        bad("server data", "--port 70000", "--id ds-9 --dir DIR --meta NOWHERE --port 70000"),
        bad(
            "server meta",
            "is not id=host:clientPort:raftPort",
            "--id m9 --dir DIR --peers m9=127.0.0.1"),
        bad(
            "server proxy",
            "'nohost' is not host:port",
            "--id p --data-server nohost --listen NOWHERE --meta NOWHERE"),
        bad("server nfs", "port 99999 outside 1-65535", "--meta NOWHERE --listen 127.0.0.1:99999"),
        bad("server restart", "no cluster.json in", "--dir DIR ds-1"),
        bad("server decommission", "server id 'bad/id'", "bad/id"),
        bad("server decommission", "must be more than 0", "--wait-timeout 0 ds-1"),
        bad("server recommission", "server id 'bad/id'", "bad/id"),
        bad("server remove", "server id 'bad/id'", "bad/id"),
        bad("fs put", "at least one data unit", "--ec 0+2 pom.xml /a"),
        bad("fs put", "parity units cannot be negative", "--ec 4+-2 pom.xml /a"),
        bad("fs put", "is not K+M", "--ec abc pom.xml /a"),
        bad("fs put", "must be a power of two", "--stripe-unit 3 pom.xml /a"),
        bad("fs get", "empty path", "'' DIR"),
        bad("fs mkdir", "exceeds 255", "--ec 300+2 /d"),
        bad("fs mkdir", "must be a power of two", "--stripe-unit 1000 /d"),
        bad("fs ls", "--app-id: application name 'bad app!'", "--app-id 'bad app!' /"),
        bad("fs ls", "--timeout 0", "--timeout 0 /"),
        bad("fs ls", "is not a duration", "--timeout soon /"),
        bad("fs ls", "not a client setting", "-Dtessera.client.no-such-key=1 /"),
        bad("fs cat", "empty path", "''"),
        bad("fs stat", "empty path", "''"),
        bad("fs rm", "empty path", "''"),
        bad("fs mv", "empty path", "'' /x"),
        bad("fs locks", "empty path", "''"),
        bad("fs flatten", "empty path", "''"),
        bad("fs chmod", "is not octal permission bits", "999 /"),
        bad("fs chown", "owner '-5' is not a number", "-5:-5 /"),
        bad("fs chgrp", "is not a number", "staff /"),
        bad("fsck", "must be more than 0", "--repair-timeout 0 /"),
        bad("snapshot create", "snapshot name 'bad/name' is not valid", "bad/name"),
        bad("snapshot create", "snapshot name '' is not valid", "''"),
        bad("snapshot delete", "snapshot name 'bad/name' is not valid", "bad/name"),
        bad("snapshot diff", "snapshot name '..' is not valid", ".. b"),
        bad("snapshot restore", "snapshot name 'a b' is not valid", "'a b' /"),
        bad("snapshot list", "--timeout -1s", "--timeout -1s"),
        bad("cluster status", "--app-id: application name ''", "--app-id ''"),
        bad("cluster rolling-restart", "must be more than 0", "--wait-timeout 0"),
        bad("qos set", "a weight is a positive number", "--weight 0 app"),
        bad("qos set", "a weight is a positive number", "--weight -2 app"),
        bad("qos set", "application name 'bad app!'", "--weight 1 'bad app!'"),
        bad("qos set", "not a size in bytes per second", "--limit 5Q app"),
        bad("qos reset", "application name 'a/b'", "a/b"),
        bad("qos status", "must be more than 0", "--window 0"),
        bad("qos list", "--timeout 0", "--timeout 0"),
        bad("console token create", "console token name ''", "--name ''"),
        bad("console token list", "--timeout 0", "--timeout 0"),
        bad("console token revoke", "is neither a console token's id", "NOPE"),
        bad("console audit", "--limit 0: from 1 to 1000", "--limit 0"),
        bad("credentials issue", "name 'bad user'", "--user 'bad user'"),
        bad(
            "credentials issue",
            "--role and --host are a server's",
            "--user bob --uid 3 --gid 5 --role data --dir DIR"),
        bad(
            "credentials issue",
            "--days 0: at least 1",
            "--user bob --uid 3 --gid 5 --days 0 --dir DIR"),
        bad("credentials list", "--app-id: application name 'x y'", "--app-id 'x y'"),
        bad("credentials revoke", "a serial is hexadecimal", "--serial xyz"),
        bad("credentials revoke", "name 'a b'", "'a b'"),
        bad("ca init", "name 'a/b'", "--dir DIR --name a/b"),
        bad("recover status", "--timeout 0", "--timeout 0"),
        bad("bench ior", "--transfer from 1 byte to 1 GiB", "--transfer 0"),
        bad("bench ior", "at least one data unit", "--ec 0+2"),
        bad("bench ior", "--readers must be >= 1", "--readers 0"),
        bad("bench exerciser", "--processes must be 1 to 64", "--processes 0"),
        bad("bench exerciser", "parity units cannot be negative", "--ec 2+-1"),
        bad("bench locks", "--clients", "--clients 0"),
        bad("bench meta", "--clients and --threads must be >= 1", "--threads 0"),
        bad("bench snapshot-overhead", "--clients and --rounds must be at least 1", "--clients 0"),
        bad("bench snapshot-read-diff", "--size, --files and --rounds", "--files 0"),
        bad("bench rebuild", "at least one data unit", "--ec 0+3"),
        bad("bench qos", "--experiment nosuch", "--experiment nosuch"),
        bad("bench nfs", "--threads must be >= 1", "--threads 0 --nfs NOWHERE"),
        bad("bench handshakes", "--threads, --seconds and --runs are at least 1", "--threads 0"),
        bad("settings", "expected one of [client, meta, data, qos, nfs]", "nosuch"));
  }

  static Stream<Arguments> everyCase() {
    return cases().stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyCase")
  void aMalformedValueIsBadUsageRefusedBeforeAnyClusterIsAsked(Case c) {
    List<String> line = c.line();
    if (takesMeta(c.command()) && !line.contains("--meta")) {
      line.addAll(List.of("--meta", NOWHERE));
    }
    StringWriter err = new StringWriter();
    int code =
        Tessera.run(
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            line.toArray(String[]::new));

    assertThat(err.toString()).as("what %s says", line).contains(c.says());
    assertThat(code).as("exit code of %s (%s)", line, err).isEqualTo(Tessera.EXIT_USAGE);
  }

  @Test
  void everyCommandHasItsMalformedValuesWalked() {
    Set<String> walked = new TreeSet<>();
    cases().forEach(c -> walked.add(c.command()));

    assertThat(walked).containsAll(leaves(Tessera.commandLine(), ""));
  }

  /** Every command a user can run: the leaves of the tree, less help and hidden ones. */
  private static Set<String> leaves(CommandLine cl, String prefix) {
    Set<String> out = new TreeSet<>();
    cl.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (sub.getCommandSpec().usageMessage().hidden()
                  || sub.getCommand() instanceof CommandLine.HelpCommand
                  || !sub.getCommandName().equals(name)) { // an alias
                return;
              }
              String path = prefix.isEmpty() ? name : prefix + " " + name;
              if (sub.getSubcommands().isEmpty()) {
                out.add(path);
              } else {
                out.addAll(leaves(sub, path));
              }
            });
    return out;
  }

  private static boolean takesMeta(String command) {
    CommandLine cl = Tessera.commandLine();
    for (String word : command.split(" ")) {
      cl = cl.getSubcommands().get(word);
    }
    return cl.getCommandSpec().findOption("--meta") != null
        && !cl.getCommandSpec().findOption("--meta").required();
  }
}
