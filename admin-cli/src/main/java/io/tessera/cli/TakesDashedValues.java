package io.tessera.cli;

/**
 * A command whose positional values may start with a dash (a negative id it then refuses with the
 * reason): an argument that is no option of it is taken as a value.
 */
public interface TakesDashedValues {}
