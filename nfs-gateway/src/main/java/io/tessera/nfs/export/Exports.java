package io.tessera.nfs.export;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * The exports a gateway serves, in {@code /etc/exports} syntax: one export per line, {@code PATH
 * CLIENT(OPTIONS) CLIENT(OPTIONS) ...}, {@code #} comments, {@code \} continues a line. Options:
 * {@code rw}/{@code ro}, {@code root_squash}/{@code no_root_squash} (root squashed by default),
 * {@code all_squash}/{@code no_all_squash}, {@code anonuid=N}, {@code anongid=N}, {@code fsid=N},
 * {@code secure}/{@code insecure} (secure by default: calls from privileged ports only); {@code
 * sync}, {@code async}, {@code subtree_check} and {@code no_subtree_check} are accepted and change
 * nothing here.
 */
public final class Exports {
  /**
   * The default of {@code tessera local}: the whole namespace, read-write, to this machine only,
   * root squashed; {@code insecure}, as this machine's users run their NFS clients themselves (from
   * ports above 1024) and each acts as itself.
   */
  public static final String LOCAL =
      "/ 127.0.0.1(rw,root_squash,insecure) ::1(rw,root_squash,insecure)\n";

  private final Map<Integer, Export> byId = new LinkedHashMap<>();

  private Exports(List<Export> exports) {
    for (Export e : exports) {
      Export clash = byId.putIfAbsent(e.id(), e);
      if (clash != null) {
        throw new IllegalArgumentException(
            "exports "
                + clash.path()
                + " and "
                + e.path()
                + " have the same fsid "
                + Integer.toUnsignedString(e.id())
                + ": give one of them another fsid=");
      }
    }
  }

  public static Exports read(Path file) throws IOException {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  public static Exports parse(String text) {
    List<Export> out = new ArrayList<>();
    String[] lines = text.replace("\\\n", " ").split("\n");
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].replaceFirst("#.*", "").trim();
      if (!line.isEmpty()) {
        try {
          out.add(line(line));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no exports (a line is PATH CLIENT(OPTIONS) ...)");
    }
    return new Exports(out);
  }

  private static Export line(String line) {
    String[] words = line.split("\\s+");
    String path = words[0];
    if (!path.startsWith("/")
        || path.contains("//")
        || path.contains("/./")
        || path.contains("/../")
        || path.endsWith("/..")
        || path.endsWith("/.")) {
      throw new IllegalArgumentException("export path '" + path + "' must be absolute and plain");
    }
    if (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (words.length < 2) {
      throw new IllegalArgumentException(path + " names no clients (e.g. 10.0.0.0/8(rw))");
    }
    List<ClientRule> rules = new ArrayList<>();
    Integer fsid = null;
    for (int w = 1; w < words.length; w++) {
      String word = words[w];
      int open = word.indexOf('(');
      if (open >= 0 && !word.endsWith(")")) {
        throw new IllegalArgumentException("'" + word + "': options must end with ')'");
      }
      String client = open < 0 ? word : word.substring(0, open);
      String options = open < 0 ? "" : word.substring(open + 1, word.length() - 1);
      Options o = new Options();
      for (String opt : options.split(",")) {
        o.apply(opt.trim());
      }
      if (o.fsid != null) {
        fsid = o.fsid;
      }
      rules.add(
          new ClientRule(
              AddressMatch.parse(client.isEmpty() ? "*" : client),
              o.readWrite,
              o.rootSquash,
              o.allSquash,
              o.anonUid,
              o.anonGid,
              o.secure));
    }
    return new Export(path, fsid != null ? fsid : idOf(path), List.copyOf(rules));
  }

  /** The handle id of an export without fsid=: the same on every gateway. */
  static int idOf(String path) {
    CRC32 crc = new CRC32();
    crc.update(path.getBytes(StandardCharsets.UTF_8));
    return (int) crc.getValue();
  }

  private static final class Options {
    boolean readWrite;
    boolean rootSquash = true;
    boolean allSquash;
    int anonUid = ClientRule.NOBODY;
    int anonGid = ClientRule.NOBODY;
    boolean secure = true;
    Integer fsid;

    void apply(String opt) {
      int eq = opt.indexOf('=');
      String name = eq < 0 ? opt : opt.substring(0, eq);
      String value = eq < 0 ? null : opt.substring(eq + 1);
      switch (name) {
        case "" -> {}
        case "rw" -> readWrite = true;
        case "ro" -> readWrite = false;
        case "root_squash" -> rootSquash = true;
        case "no_root_squash" -> rootSquash = false;
        case "all_squash" -> allSquash = true;
        case "no_all_squash" -> allSquash = false;
        case "anonuid" -> anonUid = number(name, value);
        case "anongid" -> anonGid = number(name, value);
        case "fsid" -> fsid = number(name, value);
        case "secure" -> secure = true;
        case "insecure" -> secure = false;
        case "sync", "async", "subtree_check", "no_subtree_check", "wdelay", "no_wdelay" -> {}
        default ->
            throw new IllegalArgumentException(
                "unknown option '"
                    + opt
                    + "' (rw, ro, root_squash, no_root_squash, all_squash, anonuid=, anongid=,"
                    + " fsid=, secure, insecure)");
      }
    }

    private static int number(String name, String value) {
      try {
        int v = Integer.parseInt(value == null ? "" : value);
        if (v >= 0) {
          return v;
        }
      } catch (NumberFormatException e) {
        // the message below
      }
      throw new IllegalArgumentException(name + "=" + value + " is not a number from 0");
    }
  }

  public List<Export> all() {
    return List.copyOf(byId.values());
  }

  public Optional<Export> byId(int id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The export whose path is exactly {@code path} (MOUNT names an export's own path). */
  public Optional<Export> byPath(String path) {
    return byId.values().stream().filter(e -> e.path().equals(path)).findFirst();
  }
}
