/**
 * Named fault points that do nothing until a test arms them (in-process per scope, or as a pause in
 * a process started by a test).
 */
package io.tessera.common.fault;
