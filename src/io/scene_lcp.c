/* the LCP-mode keys of a JSON scene: "mode" and the "lcp" options object (docs/lcp-mode.md).
   scene.c accepts both keys and leaves them to this reader. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/json_read.h"
#include "io/path.h"
#include "lcp/lcp_world.h"

ipcc_status ipcc_lcp_scene_load(const char *path, ipcc_lcp_world_def *d, int *lcp_mode,
                                ipcc_error *err) {
  size_t len = 0;
  char *text = ipc_read_file(path, &len, err);
  if (!text) return IPCC_ERR_INPUT;
  cJSON *root = ipc_json_parse_object(path, text, len, err);
  ipc_free(text);
  if (!root) return IPCC_ERR_INPUT;
  ipcc_status st = IPCC_OK;
  const cJSON *mode = cJSON_GetObjectItemCaseSensitive(root, "mode");
  if (lcp_mode) *lcp_mode = 0;
  if (mode) {
    if (!cJSON_IsString(mode) ||
        (strcmp(mode->valuestring, "ipc") && strcmp(mode->valuestring, "lcp")))
      st = ipc_error_set(err, IPCC_ERR_INPUT, "%s: mode: expected \"ipc\" or \"lcp\"", path);
    else if (lcp_mode)
      *lcp_mode = !strcmp(mode->valuestring, "lcp");
  }
  const cJSON *lcp = cJSON_GetObjectItemCaseSensitive(root, "lcp");
  if (st == IPCC_OK && lcp) {
    if (!cJSON_IsObject(lcp)) {
      st = ipc_error_set(err, IPCC_ERR_INPUT, "%s: lcp: expected an object of options", path);
    } else {
      for (const cJSON *it = lcp->child; it && st == IPCC_OK; it = it->next) {
        char value[64];
        if (cJSON_IsString(it))
          snprintf(value, sizeof value, "%s", it->valuestring);
        else if (cJSON_IsNumber(it))
          snprintf(value, sizeof value, "%.17g", it->valuedouble);
        else if (cJSON_IsBool(it))
          snprintf(value, sizeof value, "%s", cJSON_IsTrue(it) ? "true" : "false");
        else
          snprintf(value, sizeof value, "(not a string, number or boolean)");
        ipcc_error e;
        if (ipcc_lcp_world_def_set(d, it->string, value, &e) != IPCC_OK)
          st = ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s", path, e.msg);
      }
    }
  }
  cJSON_Delete(root);
  return st;
}
