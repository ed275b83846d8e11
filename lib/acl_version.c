// SPDX-License-Identifier: MIT
/*
 * libacl: versions and installation features: aclsysGetVersionStr/Num,
 * aclrtGetVersion, aclGetCannAttribute(List).
 *
 * CANN reads a version.info file per installed package. Here there are
 * two packages, each answering with its own version: "runtime" (CANN's
 * name for the package that holds libacl; the npu-dma release, VERSION
 * at the top of the tree, built in) and "driver" (the loaded npu_dma
 * module's MODULE_VERSION). The CANN attributes describe the compute
 * side of an installation (Inf/NaN arithmetic, bfloat16, a JIT operator
 * compiler); a data-movement stack has none of them, so all are
 * reported unavailable.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"

#ifndef NPU_DMA_VERSION
#error "NPU_DMA_VERSION (the release, ../VERSION) must be defined by the build"
#endif

/* Weights of CANN's version numbers: major.minor.patch[-(alpha|beta|rc)N]. */
#define ACL_VER_MAJOR	10000000
#define ACL_VER_MINOR	100000
#define ACL_VER_PATCH	1000

/* The version text of package @pkg into @buf: 0 or an error recorded. */
static aclError acl_pkg_version(const char *pkg, char *buf, size_t size)
{
	int err;

	if (!strcmp(pkg, "runtime")) {
		snprintf(buf, size, "%s", NPU_DMA_VERSION);
		return ACL_SUCCESS;
	}
	if (!strcmp(pkg, "driver")) {
		err = acl_kmd_driver_version(buf, size);
		if (!err)
			return ACL_SUCCESS;
		return acl_err(ACL_ERROR_INVALID_FILE,
			       "pkgName=\"driver\": the version of the %s "
			       "module: %s", NPU_DMA_DRIVER_NAME,
			       err == -ENOENT ? "module not loaded" :
			       strerror(-err));
	}
	return acl_err(ACL_ERROR_INVALID_FILE,
		       "pkgName=\"%.64s\" is not installed (there are "
		       "\"runtime\" and \"driver\")", pkg);
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName,
						 char *versionStr)
{
	char v[ACL_PKG_VERSION_MAX_SIZE];
	aclError ret;

	ACL_ENTER();
	if (!pkgName || !versionStr)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "pkgName=%p versionStr=%p: neither may be NULL",
			       (void *)pkgName, (void *)versionStr);
	ret = acl_pkg_version(pkgName, v, sizeof(v));
	if (!ret)
		memcpy(versionStr, v, strlen(v) + 1);
	return ret;
}

/* A decimal number at *@p (advanced past it), at most @max: 0 or -1. */
static int acl_ver_part(const char **p, long max, long *out)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	*out = strtol(*p, &end, 10);
	if (errno || *out > max)
		return -1;
	*p = end;
	return 0;
}

/*
 * The pre-release suffix after major.minor.patch, as CANN weighs it:
 * at most one '.' or '-', "alpha", "beta" or "rc" (any case), then an
 * optional number after at most one '.' or '-'. Alpha N counts
 * N - 300, beta N - 200, rc N - 100. 0 with *@adj, or -1.
 */
static int acl_ver_suffix(const char *p, long *adj)
{
	static const struct {
		const char *word;
		long weight;
	} kinds[] = { { "alpha", 300 }, { "beta", 200 }, { "rc", 100 } };
	size_t i, n;
	long num = 0;

	if (*p == '.' || *p == '-')
		p++;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		n = strlen(kinds[i].word);
		if (!strncasecmp(p, kinds[i].word, n))
			break;
	}
	if (i == sizeof(kinds) / sizeof(kinds[0]))
		return -1;
	p += n;
	if (*p == '.' || *p == '-')
		p++;
	if (*p && (acl_ver_part(&p, 99999, &num) || *p))
		return -1;
	*adj = num - kinds[i].weight;
	return 0;
}

/* CANN's number for version text @s: 0 with *@num, or -1. */
static int acl_ver_num(const char *s, int32_t *num)
{
	long major, minor, patch, adj = 0, v;
	const char *p = s;

	/* 213.99.99 is the largest that fits an int32_t. */
	if (acl_ver_part(&p, 213, &major) || *p++ != '.' ||
	    acl_ver_part(&p, 99, &minor) || *p++ != '.' ||
	    acl_ver_part(&p, 99, &patch))
		return -1;
	if (*p && acl_ver_suffix(p, &adj))
		return -1;
	v = major * ACL_VER_MAJOR + minor * ACL_VER_MINOR +
	    patch * ACL_VER_PATCH + adj;
	if (v < 0 || v > INT32_MAX)
		return -1;
	*num = (int32_t)v;
	return 0;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName,
						 int32_t *versionNum)
{
	char v[ACL_PKG_VERSION_MAX_SIZE];
	aclError ret;

	ACL_ENTER();
	if (!pkgName || !versionNum)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "pkgName=%p versionNum=%p: neither may be NULL",
			       (void *)pkgName, (void *)versionNum);
	ret = acl_pkg_version(pkgName, v, sizeof(v));
	if (ret)
		return ret;
	if (acl_ver_num(v, versionNum))
		return acl_err(ACL_ERROR_INTERNAL_ERROR,
			       "pkgName=\"%s\": version \"%s\" is not of the "
			       "form major.minor.patch[-rcN]", pkgName, v);
	return ACL_SUCCESS;
}

/* Defining a deprecated function is no use of it; keep -Werror quiet. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion,
					     int32_t *minorVersion,
					     int32_t *patchVersion)
{
	ACL_ENTER();
	if (!majorVersion || !minorVersion || !patchVersion)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "majorVersion=%p minorVersion=%p "
			       "patchVersion=%p: none may be NULL",
			       (void *)majorVersion, (void *)minorVersion,
			       (void *)patchVersion);
	*majorVersion = ACL_MAJOR_VERSION;
	*minorVersion = ACL_MINOR_VERSION;
	*patchVersion = ACL_PATCH_VERSION;
	return ACL_SUCCESS;
}
#pragma GCC diagnostic pop

/*
 * The available attributes: none. The list is never empty memory, so
 * a caller that reads it before checking the count reads a valid
 * (undefined) entry.
 */
static const aclCannAttr acl_cann_attrs[] = { ACL_CANN_ATTR_UNDEFINED };

ACL_FUNC_VISIBILITY aclError
aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
	ACL_ENTER();
	if (!cannAttrList || !num)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "cannAttrList=%p num=%p: neither may be NULL",
			       (void *)cannAttrList, (void *)num);
	*cannAttrList = acl_cann_attrs;
	*num = 0;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr,
						 int32_t *value)
{
	ACL_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	switch (cannAttr) {
	case ACL_CANN_ATTR_INF_NAN:
	case ACL_CANN_ATTR_BF16:
	case ACL_CANN_ATTR_JIT_COMPILE:
		*value = 0;	/* no arithmetic, no operator compiler */
		return ACL_SUCCESS;
	default:
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "cannAttr=%d is not an aclCannAttr",
			       (int)cannAttr);
	}
}
