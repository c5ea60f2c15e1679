/* A section's description by the conventions of benchmark harnesses
 * (read.h, struct section_info): which "desc:" line says why the part was
 * dumped, and whether a CodSpeed-style harness named a benchmark or
 * passed metadata through that line. */
#include "read.h"

#include "util/util.h"

#include <string.h>

void read_describe_section(struct section_info *info)
{
    static const char trigger[] = "Trigger: ";
    static const char request[] = "Client Request: ", metadata[] = "Metadata: ";
    info->trigger = NULL;
    info->trigger_len = 0;
    for (size_t i = 0; i < info->descs_len;) {
        const char *line = info->descs + i;
        const char *end = memchr(line, '\n', info->descs_len - i);
        size_t n = end ? (size_t)(end - line) : info->descs_len - i;
        if (starts_with(line, n, trigger)) { /* the last one counts */
            info->trigger = line + strlen(trigger);
            info->trigger_len = n - strlen(trigger);
        }
        i += n + 1;
    }
    /* a harness dumps a benchmark's part with its name as the request */
    info->benchmark = info->trigger && starts_with(info->trigger, info->trigger_len, request);
    info->name = info->benchmark ? info->trigger + strlen(request) : NULL;
    info->name_len = info->benchmark ? info->trigger_len - strlen(request) : 0;
    info->metadata = info->benchmark && starts_with(info->name, info->name_len, metadata);
    info->metadata_text = info->metadata ? info->name + strlen(metadata) : NULL;
    info->metadata_len = info->metadata ? info->name_len - strlen(metadata) : 0;
}
