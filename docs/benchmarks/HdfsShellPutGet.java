// hadoop fs -put / -get of one local file against the HDFS peer (MiniDFSCluster: 9 DataNodes,
// /ec = RS-6-3-1024k, as ../shared/peers/hdfs-ec), timed in the same JVM (issue 64).
// Run with the peer's class path (its target/lib, built by `mvn package` there):
//   java -cp "$PEER/target/hdfs-bench.jar:$PEER/target/lib/*" docs/benchmarks/HdfsShellPutGet.java BASEDIR LOCAL RUNS
// Drops the page cache (as root) before every get. Prints: hdfs-put|hdfs-get BYTES SECONDS MB/s.
import java.io.FileOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

public class HdfsShellPutGet {
  public static void main(String[] a) throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, a[0]);
    Path local = Path.of(a[1]);
    int runs = Integer.parseInt(a[2]);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(9).build();
    try {
      cluster.waitActive();
      DistributedFileSystem fs = cluster.getFileSystem();
      org.apache.hadoop.fs.Path ec = new org.apache.hadoop.fs.Path("/ec");
      fs.mkdirs(ec);
      fs.enableErasureCodingPolicy("RS-6-3-1024k");
      fs.setErasureCodingPolicy(ec, "RS-6-3-1024k");
      String uri = fs.getUri() + "/ec/f";
      FsShell shell = new FsShell(cluster.getConfiguration(0));
      long bytes = Files.size(local);
      for (int r = 0; r < runs; r++) {
        fs.delete(new org.apache.hadoop.fs.Path("/ec/f"), false);
        time(shell, bytes, "hdfs-put", "-put", local.toString(), uri);
        Path back = local.resolveSibling("hdfs-back.bin");
        Files.deleteIfExists(back);
        drop();
        time(shell, bytes, "hdfs-get", "-get", uri, back.toString());
        Files.delete(back);
      }
    } finally {
      cluster.shutdown();
    }
  }

  static void time(FsShell shell, long bytes, String name, String... args) throws Exception {
    long t0 = System.nanoTime();
    int rc = shell.run(args);
    double s = (System.nanoTime() - t0) / 1e9;
    if (rc != 0) {
      throw new IllegalStateException(name + " exited " + rc);
    }
    System.out.printf("%s %d %.2f %.0f%n", name, bytes, s, bytes / s / 1e6);
  }

  static void drop() throws Exception {
    new ProcessBuilder("sync").inheritIO().start().waitFor();
    try (FileOutputStream o = new FileOutputStream("/proc/sys/vm/drop_caches")) {
      o.write("3\n".getBytes());
    }
  }
}
