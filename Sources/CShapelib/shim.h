#ifndef GEOCONV_CSHAPELIB_SHIM_H
#define GEOCONV_CSHAPELIB_SHIM_H

#include <shapefil.h>
#include <iconv.h>

#endif
