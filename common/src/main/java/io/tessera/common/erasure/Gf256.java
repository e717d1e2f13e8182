package io.tessera.common.erasure;

/**
 * Arithmetic in GF(2^8) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D), as Backblaze's codec
 * uses.
 */
final class Gf256 {
  private Gf256() {}

  /** a * b, by shift-and-add (only for building tables). */
  static int multiply(int a, int b) {
    int product = 0;
    while (b != 0) {
      if ((b & 1) != 0) {
        product ^= a;
      }
      a <<= 1;
      if ((a & 0x100) != 0) {
        a ^= 0x11D;
      }
      b >>>= 1;
    }
    return product;
  }
}
