#ifndef GEOCONV_CLIBXML2_SHIM_H
#define GEOCONV_CLIBXML2_SHIM_H

/* Debian builds libxml2 with ICU; Foundation on Linux carries its own ICU. Importing both
   into one Swift build breaks a clean build ("'UErrorCode' has different definitions in
   different modules"). geoconv never uses libxml2's ICU encoders, so hide them. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>

/* The runtime library's version string, e.g. "20914". */
static inline const char *geoconv_xmlParserVersion(void) {
    return xmlParserVersion;
}

#endif
