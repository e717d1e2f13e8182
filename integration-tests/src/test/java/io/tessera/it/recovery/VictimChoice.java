package io.tessera.it.recovery;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which data servers a scenario faults: the one holding units of the most workload files, then the
 * one sharing the most of those files with it (a file missed by both is what a two-server scenario
 * is about). Ties go round the servers from {@code rotation}, so successive runs fault different
 * servers when every one holds as much.
 */
final class VictimChoice {
  private VictimChoice() {}

  /**
   * Every server of {@code servers}, best victim first; {@code holders}: the servers of each file.
   */
  static List<String> rank(List<String> servers, List<List<String>> holders, int rotation) {
    int n = servers.size();
    Comparator<String> round =
        Comparator.comparingInt(s -> Math.floorMod(servers.indexOf(s) - rotation, n));
    List<String> ranked = new ArrayList<>(servers);
    ranked.sort(
        Comparator.comparingLong((String s) -> -filesHeldBy(holders, List.of(s)))
            .thenComparing(round));
    String first = ranked.remove(0);
    ranked.sort(
        Comparator.comparingLong((String s) -> -filesHeldBy(holders, List.of(first, s)))
            .thenComparing(round));
    ranked.add(0, first);
    return ranked;
  }

  private static long filesHeldBy(List<List<String>> holders, List<String> all) {
    return holders.stream().filter(h -> h.containsAll(all)).count();
  }
}
