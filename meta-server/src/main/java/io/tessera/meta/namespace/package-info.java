/**
 * The namespace in RocksDB: inodes, directories and partial files, one transaction per change, and
 * one small op class per kind of change (create, mkdir, remove, rename, set attributes).
 */
package io.tessera.meta.namespace;
