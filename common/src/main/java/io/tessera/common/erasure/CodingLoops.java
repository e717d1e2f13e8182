package io.tessera.common.erasure;

import com.backblaze.erasure.CodingLoop;
import com.backblaze.erasure.InputOutputByteTableCodingLoop;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which GF(2^8) coding loop the codec runs. The Vector API loop is used where the JVM has the
 * {@code jdk.incubator.vector} module (start it with {@code --add-modules jdk.incubator.vector};
 * the {@code tessera} script does for commands that move data) and SIMD registers of at least 128
 * bits, once the JIT has compiled it ({@link #ADAPTIVE}); elsewhere Backblaze's table loop. {@code
 * -Dtessera.erasure.loop=backblaze|vector} forces one.
 */
public enum CodingLoops {
  /** Backblaze's InputOutputByteTableCodingLoop (its default). */
  BACKBLAZE,
  /** Ours: split 4-bit tables and lane shuffles with the JDK Vector API. */
  VECTOR,
  /**
   * Backblaze's until the JIT has compiled ours (a warm-up thread watches), then ours: what codecs
   * use.
   */
  ADAPTIVE;

  private static final Logger LOG = LoggerFactory.getLogger(CodingLoops.class);
  private static volatile CodingLoops chosen;

  /** The loop new codecs use. */
  public static CodingLoops best() {
    CodingLoops c = chosen;
    if (c == null) {
      c = choose();
      chosen = c;
    }
    return c;
  }

  /** Whether this JVM can run the Vector API loop. */
  public static boolean vectorAvailable() {
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      return false;
    }
    try {
      return VectorSupport.bits() >= 128;
    } catch (LinkageError e) {
      return false;
    }
  }

  private static CodingLoops choose() {
    String forced = System.getProperty("tessera.erasure.loop", "").toLowerCase(Locale.ROOT);
    if (forced.equals("backblaze")) {
      return BACKBLAZE;
    }
    boolean vector = vectorAvailable();
    if (forced.equals("vector") && !vector) {
      LOG.warn(
          "tessera.erasure.loop=vector asked for, but this JVM lacks jdk.incubator.vector (add "
              + "--add-modules jdk.incubator.vector); using Backblaze's loop");
    }
    if (forced.equals("vector") && vector) {
      return VECTOR;
    }
    return vector ? ADAPTIVE : BACKBLAZE;
  }

  CodingLoop create() {
    return switch (this) {
      case VECTOR -> new VectorCodingLoop();
      case ADAPTIVE -> new AdaptiveCodingLoop();
      case BACKBLAZE -> new InputOutputByteTableCodingLoop();
    };
  }

  /** Whether codecs on this loop should run the Vector API loop now. */
  boolean vectorNow() {
    return this == VECTOR || (this == ADAPTIVE && VectorWarmup.isWarm());
  }

  /** Touches the Vector API only when called, so this class loads without the module. */
  private static final class VectorSupport {
    static int bits() {
      return VectorCodingLoop.SPECIES.vectorBitSize();
    }
  }
}
