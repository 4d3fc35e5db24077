/* wall-clock time for statistics */
#ifndef IPCC_CORE_TIMER_H
#define IPCC_CORE_TIMER_H

/* monotonic seconds */
double ipc_now(void);

#endif
