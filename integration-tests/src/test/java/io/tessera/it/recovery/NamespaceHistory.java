package io.tessera.it.recovery;

import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Metadata operations under faults, Jepsen style: workers create small files, rename and remove
 * them, each in a directory of its own, and keep a history of what was acknowledged and what was
 * left uncertain (any error: it may or may not have taken effect). A name an uncertain operation
 * touched is never touched again, so every name's end state has at most two allowed values. {@link
 * #check} reads the directories back and lists each violation: an acknowledged create lost, a
 * rename half done (both names, or neither), a file whose bytes are not the acknowledged ones, a
 * name nobody created. Each worker also lists its directory as it goes: it must see its own
 * acknowledged changes (a replica answering for a new leader must not hide them).
 */
final class NamespaceHistory implements AutoCloseable {
  private static final int CONTENT = 1024;

  /** An uncertain operation: {@code from} may be null (a create), {@code to} null (a remove). */
  private record Uncertain(String from, String to, long content) {}

  private final TesseraFileSystem fs;
  private final String root;
  private final int workers;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Map<String, Long>> models = new ArrayList<>();
  private final List<Set<String>> retired = new ArrayList<>();
  private final ConcurrentLinkedQueue<Uncertain> uncertain = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
  private final AtomicInteger acknowledged = new AtomicInteger();
  private final AtomicInteger uncertainCount = new AtomicInteger();
  private int round;

  NamespaceHistory(TesseraFileSystem fs, String root, int workers) throws Exception {
    this.fs = fs;
    this.root = root;
    this.workers = workers;
    for (int w = 0; w < workers; w++) {
      fs.mkdirs(dir(w), CreateOptions.erasure(2, 1).stripeUnit(16 << 10));
      models.add(new HashMap<>());
      retired.add(new HashSet<>());
    }
  }

  private String dir(int worker) {
    return root + "/w" + worker;
  }

  /** Starts the workers; a new round's names never clash with an earlier round's. */
  void start(long seed) {
    stop.set(false);
    round++;
    for (int w = 0; w < workers; w++) {
      int worker = w;
      Random r = new Random(seed * 131 + w);
      Thread t = new Thread(() -> run(worker, r), "namespace-history-" + w);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void run(int worker, Random r) {
    Map<String, Long> model = models.get(worker);
    int seq = 0;
    while (!stop.get()) {
      seq++;
      List<String> names = new ArrayList<>(model.keySet());
      String fresh = "r" + round + "-" + seq;
      long content = ((long) worker << 40) | ((long) round << 20) | seq;
      double dice = r.nextDouble();
      Uncertain op;
      if (names.size() < 4 || dice < 0.5) {
        op = new Uncertain(null, fresh, content);
      } else {
        String name = names.get(r.nextInt(names.size()));
        op =
            dice < 0.8
                ? new Uncertain(name, fresh, model.get(name))
                : new Uncertain(name, null, model.get(name));
      }
      try {
        apply(worker, op);
        acknowledged.incrementAndGet();
        if (op.from() != null) {
          model.remove(op.from());
        }
        if (op.to() != null) {
          model.put(op.to(), op.content());
        }
        if (seq % 8 == 0) {
          readOwnChanges(worker);
        }
      } catch (Exception e) {
        uncertainCount.incrementAndGet();
        uncertain.add(new Uncertain(path(worker, op.from()), path(worker, op.to()), op.content()));
        for (String n : Arrays.asList(op.from(), op.to())) {
          if (n != null) {
            model.remove(n);
            retired.get(worker).add(n);
          }
        }
        pause(100);
      }
    }
  }

  private String path(int worker, String name) {
    return name == null ? null : dir(worker) + "/" + name;
  }

  private void apply(int worker, Uncertain op) throws Exception {
    if (op.from() == null) {
      try (TesseraFile f = fs.createFile(path(worker, op.to()), CreateOptions.defaults())) {
        byte[] b = bytes(op.content());
        f.write(0, b, 0, b.length);
      }
    } else if (op.to() == null) {
      fs.delete(path(worker, op.from()), false);
    } else {
      fs.rename(path(worker, op.from()), path(worker, op.to()));
    }
  }

  /** A listing by the worker itself must show what it was told is done. */
  private void readOwnChanges(int worker) {
    Set<String> listed = new HashSet<>();
    try {
      for (FileStatus s : fs.list(dir(worker))) {
        listed.add(s.name());
      }
    } catch (Exception unavailable) {
      return; // an unanswered read says nothing
    }
    for (String name : models.get(worker).keySet()) {
      if (!listed.contains(name)) {
        violations.add("worker " + worker + " listed its directory without its " + name);
      }
    }
    for (String name : listed) {
      if (!models.get(worker).containsKey(name) && !retired.get(worker).contains(name)) {
        violations.add("worker " + worker + " listed " + name + ", which it had removed");
      }
    }
  }

  private static byte[] bytes(long content) {
    byte[] b = new byte[CONTENT];
    new Random(content).nextBytes(b);
    return b;
  }

  void stop() throws InterruptedException {
    stop.set(true);
    for (Thread t : threads) {
      t.join(120_000);
    }
    threads.clear();
  }

  int acknowledged() {
    return acknowledged.get();
  }

  int uncertain() {
    return uncertainCount.get();
  }

  /** Reads every directory back with {@code reader}; returns every violation of the history. */
  List<String> check(TesseraFileSystem reader) throws Exception {
    List<String> found = new ArrayList<>(violations);
    Set<String> explained = new HashSet<>();
    for (int w = 0; w < workers; w++) {
      for (Map.Entry<String, Long> e : models.get(w).entrySet()) {
        String p = path(w, e.getKey());
        explained.add(p);
        if (!holds(reader, p, e.getValue(), false)) {
          found.add("acknowledged " + p + " lost or changed");
        }
      }
    }
    for (Uncertain u : uncertain) {
      boolean atFrom = u.from() != null && reader.exists(u.from());
      boolean atTo = u.to() != null && reader.exists(u.to());
      if (u.from() != null && u.to() != null && atFrom == atTo) {
        found.add(
            "rename "
                + u.from()
                + " -> "
                + u.to()
                + " half done: "
                + (atFrom ? "both" : "neither")
                + " names exist");
      }
      String present = atTo ? u.to() : atFrom ? u.from() : null;
      if (present != null && !holds(reader, present, u.content(), u.from() == null)) {
        found.add(present + " holds bytes nobody wrote to it");
      }
      explained.add(u.from());
      explained.add(u.to());
    }
    for (int w = 0; w < workers; w++) {
      for (FileStatus s : reader.list(dir(w))) {
        String p = path(w, s.name());
        if (!explained.contains(p)) {
          found.add(p + " exists, but no operation made it");
        }
      }
    }
    return found;
  }

  /** Whether {@code path} holds the content; an uncertain create may also have left it empty. */
  private static boolean holds(
      TesseraFileSystem reader, String path, long content, boolean mayBeEmpty) throws Exception {
    if (!reader.exists(path)) {
      return false;
    }
    byte[] want = bytes(content);
    try (TesseraFile f = reader.openFile(path)) {
      long size = f.size();
      if (size == 0 && mayBeEmpty) {
        return true;
      }
      if (size != want.length) {
        return false;
      }
      byte[] got = new byte[want.length];
      f.readFully(0, got, 0, got.length);
      return Arrays.equals(got, want);
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
