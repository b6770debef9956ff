#ifndef GEOCONV_CPROJ_SHIM_H
#define GEOCONV_CPROJ_SHIM_H

#include <proj.h>
#include <geodesic.h>

#endif
