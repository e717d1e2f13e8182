/**
 * {@code tessera fs}: file-system commands (put, get, cat, ls, stat, mkdir, mv, rm) over the Java
 * file API.
 */
package io.tessera.cli.fs;
