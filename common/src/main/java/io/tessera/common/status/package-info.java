/** The status codes every protocol answers with, as an exception that carries one. */
package io.tessera.common.status;
