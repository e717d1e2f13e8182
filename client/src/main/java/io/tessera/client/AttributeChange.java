package io.tessera.client;

import java.time.Instant;

/**
 * Attributes to change on a file or directory; a null field leaves that attribute as it is.
 *
 * @param mode POSIX permission bits (chmod)
 * @param uid owner (chown)
 * @param gid group (chgrp)
 * @param modified the modification time (touch -m)
 */
public record AttributeChange(Integer mode, Integer uid, Integer gid, Instant modified) {
  public static AttributeChange mode(int bits) {
    return new AttributeChange(bits, null, null, null);
  }

  public static AttributeChange owner(Integer uid, Integer gid) {
    return new AttributeChange(null, uid, gid, null);
  }

  public static AttributeChange modified(Instant when) {
    return new AttributeChange(null, null, null, when);
  }
}
