package io.tessera.cli.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code tessera fs ls -l} shows a mode as ls does, so a user reads it at a glance. */
class PermissionsTest {
  private static final PosixFilePermission[] BY_BIT = {
    PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_READ,
    PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_READ,
    PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_READ
  };

  @Test
  void everyPermissionModeReadsAsTheJdkWritesIt() {
    for (int mode = 0; mode <= 0777; mode++) {
      Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
      for (int bit = 0; bit < BY_BIT.length; bit++) {
        if ((mode & (1 << bit)) != 0) {
          perms.add(BY_BIT[bit]);
        }
      }
      String expected = PosixFilePermissions.toString(perms);
      assertThat(Permissions.symbolic(false, mode)).as("mode %04o", mode).isEqualTo("-" + expected);
      assertThat(Permissions.symbolic(true, mode)).as("mode %04o", mode).isEqualTo("d" + expected);
    }
  }

  @Test
  void setuidSetgidAndStickyShowInTheExecutePlaceAsLsShowsThem() {
    assertThat(Permissions.symbolic(false, 04755)).isEqualTo("-rwsr-xr-x");
    assertThat(Permissions.symbolic(false, 04644)).isEqualTo("-rwSr--r--");
    assertThat(Permissions.symbolic(false, 02750)).isEqualTo("-rwxr-s---");
    assertThat(Permissions.symbolic(false, 02740)).isEqualTo("-rwxr-S---");
    assertThat(Permissions.symbolic(true, 01777)).isEqualTo("drwxrwxrwt");
    assertThat(Permissions.symbolic(true, 01776)).isEqualTo("drwxrwxrwT");
  }
}
