#ifndef GEOCONV_CSQLITE_SHIM_H
#define GEOCONV_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
