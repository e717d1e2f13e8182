// Files.copy of one file into or out of Tessera through the java.nio provider, timed (issue 64).
// Run with java's single-file launcher and the client's class path:
//   java -cp 'admin-cli/target/lib/*' docs/benchmarks/NioCopy.java in|out LOCAL TESSERA_PATH META CREDENTIALS
// Prints: nio-copy-in|out BYTES SECONDS MB/s (MB = 10^6 bytes).
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

public class NioCopy {
  public static void main(String[] a) throws Exception {
    String direction = a[0];
    Path local = Path.of(a[1]);
    try (FileSystem fs =
        FileSystems.newFileSystem(URI.create("tessera://" + a[3] + "/"), Map.of("credentials", a[4]))) {
      Path remote = fs.getPath(a[2]);
      long t0 = System.nanoTime();
      if (direction.equals("in")) {
        Files.copy(local, remote, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.copy(remote, local, StandardCopyOption.REPLACE_EXISTING);
      }
      double s = (System.nanoTime() - t0) / 1e9;
      long bytes = Files.size(local);
      System.out.printf("nio-copy-%s %d %.2f %.0f%n", direction, bytes, s, bytes / s / 1e6);
    }
  }
}
