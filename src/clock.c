/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  The wall clock every generator reads.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include <time.h>

/* CLOCK_REALTIME in Unix milliseconds */
int64
ulid_clock_now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		elog(ERROR, "clock_gettime(CLOCK_REALTIME) failed: %m");
	return (int64) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
