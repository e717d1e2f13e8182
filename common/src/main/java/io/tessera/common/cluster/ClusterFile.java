package io.tessera.common.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * {@code <dir>/cluster.json}: every server of a local cluster (meta replicas, data servers, and the
 * QoS proxies and NFS gateways when there are some) with its address, PID, data directory and the
 * command line that starts it again (run from the repository root), and the admin credentials
 * {@code tessera local} issued ({@code credentials}, the path commands fall back to).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterFile(
    List<Node> meta,
    List<Node> data,
    List<Node> proxies,
    List<Node> nfs,
    Console console,
    String credentials,
    Long stoppedAtMs) {
  public static final String NAME = "cluster.json";
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * One server process; {@code mountPort} only for NFS gateways (where MOUNT is served, the {@code
   * address} serving NFS); {@code metrics} the URL of its Prometheus metrics (null: none); {@code
   * raftAddress} only for meta replicas (their Raft port, which only other replicas may reach).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Node(
      String id,
      String address,
      long pid,
      String dir,
      List<String> cmd,
      Integer mountPort,
      String metrics,
      String raftAddress) {
    public Node(String id, String address, long pid, String dir, List<String> cmd) {
      this(id, address, pid, dir, cmd, null, null, null);
    }

    public Node withPid(long newPid) {
      return new Node(id, address, newPid, dir, cmd, mountPort, metrics, raftAddress);
    }

    /** The same node with its metrics at {@code url}. */
    public Node withMetrics(String url) {
      return new Node(id, address, pid, dir, cmd, mountPort, url, raftAddress);
    }

    /** The same node (a meta replica) with its Raft port at {@code hostPort}. */
    public Node withRaftAddress(String hostPort) {
      return new Node(id, address, pid, dir, cmd, mountPort, metrics, hostPort);
    }
  }

  /**
   * Where the console of a cluster is served and the file holding the admin token {@code tessera
   * local} created (mode 0600).
   */
  public record Console(String url, String tokenFile) {}

  public ClusterFile {
    meta = meta == null ? List.of() : List.copyOf(meta);
    data = data == null ? List.of() : List.copyOf(data);
    proxies = proxies == null ? List.of() : List.copyOf(proxies);
    nfs = nfs == null ? List.of() : List.copyOf(nfs);
  }

  /** A running cluster. */
  public ClusterFile(
      List<Node> meta,
      List<Node> data,
      List<Node> proxies,
      List<Node> nfs,
      Console console,
      String credentials) {
    this(meta, data, proxies, nfs, console, credentials, null);
  }

  /** A running cluster without QoS proxies or NFS gateways. */
  public ClusterFile(List<Node> meta, List<Node> data, String credentials) {
    this(meta, data, List.of(), List.of(), null, credentials);
  }

  /** The same cluster with its console described. */
  public ClusterFile withConsole(Console c) {
    return new ClusterFile(meta, data, proxies, nfs, c, credentials, stoppedAtMs);
  }

  /**
   * The same cluster, stopped at {@code atMs} by its launcher: commands that find it here say so at
   * once rather than wait for replicas that are not there. Starting it again writes a new file.
   */
  public ClusterFile stopped(long atMs) {
    return new ClusterFile(meta, data, proxies, nfs, console, credentials, atMs);
  }

  public static ClusterFile read(Path file) throws IOException {
    try {
      return JSON.readValue(file.toFile(), ClusterFile.class);
    } catch (IOException e) {
      throw new IOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the file, changes it and writes it back, holding an exclusive lock on {@code <file>.lock}
   * that every process updating it takes: a launcher recording a new server's PID and a server
   * recording its own both write {@code <file>.tmp}, and without the lock one renamed the other's
   * away (a test's restart failed with NoSuchFileException on cluster.json.tmp).
   */
  public static synchronized void update(Path file, UnaryOperator<ClusterFile> change)
      throws IOException {
    Path lock = file.resolveSibling(file.getFileName() + ".lock");
    try (FileChannel ch =
            FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = ch.lock()) {
      change.apply(read(file)).write(file);
    }
  }

  /**
   * Writes atomically: readers never see half a file (one writer at a time: see {@link #update}).
   */
  public void write(Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    JSON.writeValue(tmp.toFile(), this);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Every process: meta replicas, data servers, proxies, NFS gateways. */
  public List<Node> all() {
    List<Node> out = new ArrayList<>(meta);
    out.addAll(data);
    out.addAll(proxies);
    out.addAll(nfs);
    return out;
  }

  public String metaAddresses() {
    return meta.stream().map(Node::address).collect(Collectors.joining(","));
  }

  /** A copy in which the node with this id has a new PID. */
  public ClusterFile withPid(String id, long pid) {
    return new ClusterFile(
        withPid(meta, id, pid),
        withPid(data, id, pid),
        withPid(proxies, id, pid),
        withPid(nfs, id, pid),
        console,
        credentials,
        stoppedAtMs);
  }

  private static List<Node> withPid(List<Node> nodes, String id, long pid) {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes) {
      out.add(n.id().equals(id) ? n.withPid(pid) : n);
    }
    return out;
  }
}
