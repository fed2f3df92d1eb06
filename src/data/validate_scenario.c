/* scenario.json validation (docs/integrations.md, "Validation"; verify_scenario of Gym Retro's testing tools). Messages
 * keep Gym Retro's wording so the whitelists of shipped metadata.json files match. */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

/* Done nodes are followed this deep. */
#define MAX_NODE_DEPTH 32

typedef struct scen_check {
    const char *path;      /* the scenario file, for findings */
    const json_t *info;    /* data.json "info", or NULL when it could not be read */
    rg_strlist warnings;
    rg_integration_diags *out;
} scen_check;

static int err(scen_check *c, const char *fmt, const char *a)
{
    return rg__diag_add(c->out, c->path, RG_INTEGRATION_SEVERITY_ERROR, fmt, a);
}

static int warn(scen_check *c, char *msg)
{
    return rg__strlist_push_own(&c->warnings, msg);
}

/* Presence of reward / rewards. */
static int check_reward_presence(scen_check *c, const json_t *scen)
{
    const json_t *rewards = json_object_get(scen, "rewards");
    const json_t *reward = json_object_get(scen, "reward");
    int rc = RG_OK;
    if (rewards) {
        if (!json_is_array(rewards))
            return err(c, "%s is not an array", "rewards");
        size_t i;
        json_t *r;
        json_array_foreach(rewards, i, r) {
            if (rc != RG_OK)
                break;
            if (!json_is_object(r)) {
                rc = rg__diag_add(c->out, c->path, RG_INTEGRATION_SEVERITY_ERROR, "rewards[%zu] is not an object", i);
                continue;
            }
            int has_vars = json_object_get(r, "variables") != NULL, has_script = json_object_get(r, "script") != NULL;
            if (!has_vars && !has_script)
                rc = warn(c, rg__asprintf("missing reward in rewards[%zu]", i));
            else if (has_vars && has_script)
                rc = warn(c, rg__asprintf("both variables and script present in rewards[%zu]", i));
        }
        if (rc == RG_OK && reward)
            rc = warn(c, rg__asprintf("reward and rewards both present"));
        return rc;
    }
    if (reward && !json_is_object(reward))
        return err(c, "%s is not an object", "reward");
    int has_vars = reward && json_object_get(reward, "variables");
    int has_script = reward && json_object_get(reward, "script");
    if (!has_vars && !has_script)
        return warn(c, rg__asprintf("missing reward"));
    if (has_vars && has_script)
        return warn(c, rg__asprintf("both variables and script present in reward"));
    return RG_OK;
}

/* The variables of one reward spec exist in data.json and have a reward or a penalty. */
static int check_reward_vars(scen_check *c, const json_t *reward)
{
    const json_t *vars = json_is_object(reward) ? json_object_get(reward, "variables") : NULL;
    if (!vars)
        return RG_OK;
    if (!json_is_object(vars))
        return err(c, "%s is not an object", "reward variables");
    int rc = RG_OK;
    const char *name;
    json_t *def;
    json_object_foreach((json_t *)vars, name, def) {
        if (c->info && !json_object_get(c->info, name))
            rc = err(c, "invalid variable %s", name);
        if (rc == RG_OK && (!json_is_object(def) || json_object_size(def) == 0))
            rc = err(c, "invalid definition %s", name);
        else if (rc == RG_OK && !json_object_get(def, "reward") && !json_object_get(def, "penalty"))
            rc = err(c, "blank reward %s", name);
        for (int k = 0; rc == RG_OK && k < 2 && json_is_object(def); k++) { /* rewards are 32-bit floats */
            const char *field = k ? "penalty" : "reward";
            const json_t *v = json_object_get(def, field);
            double d = json_is_number(v) ? json_number_value(v) : 0.0;
            if (!(d >= -FLT_MAX && d <= FLT_MAX))
                rc = rg__diag_add(c->out, c->path, RG_INTEGRATION_SEVERITY_ERROR,
                                  "%s of %s is %g, outside the range of a 32-bit float: rewards would be infinite or "
                                  "NaN",
                                  field, name, d);
        }
        if (rc != RG_OK)
            break;
    }
    return rc;
}

static int is_str(const json_t *v, const char *s)
{
    return json_is_string(v) && strcmp(json_string_value(v), s) == 0;
}

/* One done variable: an op, an existing variable, and no `negative` on an unsigned absolute value. */
static int check_done_var(scen_check *c, const char *name, const json_t *def)
{
    int rc = RG_OK;
    if (!json_is_object(def) || !json_object_get(def, "op"))
        rc = err(c, "invalid done condition %s", name);
    if (rc != RG_OK || !c->info)
        return rc;
    const json_t *var = json_object_get(c->info, name);
    if (!var)
        return err(c, "invalid variable %s", name);
    const json_t *t = json_is_object(var) ? json_object_get(var, "type") : NULL;
    const char *type = json_is_string(t) ? json_string_value(t) : "";
    if (json_is_object(def) && !strchr(type, 'i') && is_str(json_object_get(def, "op"), "negative") &&
        !is_str(json_object_get(def, "measurement"), "delta"))
        rc = err(c, "op: negative on unsigned %s", name);
    return rc;
}

/* A done object (the top one or a node): its checks, then its nodes. */
static int check_done(scen_check *c, const json_t *done, unsigned depth)
{
    if (depth > MAX_NODE_DEPTH)
        return err(c, "done nodes nested deeper than %s", "32");
    const json_t *vars = json_object_get(done, "variables");
    const json_t *nodes = json_object_get(done, "nodes");
    int rc = RG_OK;
    if (nodes && !json_is_object(nodes))
        return err(c, "%s is not an object", "done nodes");
    if (vars && !json_is_object(vars))
        return err(c, "%s is not an object", "done variables");
    if (vars) {
        size_t checks = json_object_size(vars) + json_object_size(nodes);
        const json_t *cond = json_object_get(done, "condition");
        int is_all = is_str(cond, "all"), is_any = !cond || is_str(cond, "any");
        if (json_object_get(vars, "score"))
            rc = warn(c, rg__asprintf("suspicious variable in done condition: score"));
        if (rc == RG_OK && json_object_get(vars, "health") && json_object_get(vars, "lives") && !cond)
            rc = warn(c, rg__asprintf("suspicious done condition: health OR lives"));
        /* Gym Retro checks only the top-level done; inside a node (our extension of the check) a lone check
         * under `all` is harmless (the same as `any`), so it is a warning there. */
        if (rc == RG_OK && is_all && checks < 2)
            rc = depth == 0 ? err(c, "incorrect done condition all with only 1 check%s", "")
                            : warn(c, rg__asprintf("incorrect done condition all with only 1 check in a done node"));
        if (rc == RG_OK && is_any && checks > 2)
            rc = warn(c, rg__asprintf("suspicious done condition any with more than 2 checks"));
        const char *name;
        json_t *def;
        json_object_foreach((json_t *)vars, name, def) {
            if (rc != RG_OK)
                break;
            rc = check_done_var(c, name, def);
        }
    }
    const char *name;
    json_t *node;
    json_object_foreach((json_t *)nodes, name, node) {
        if (rc != RG_OK)
            break;
        rc = json_is_object(node) ? check_done(c, node, depth + 1) : err(c, "done node %s is not an object", name);
    }
    return rc;
}

static int check_done_presence(scen_check *c, const json_t *scen)
{
    const json_t *done = json_object_get(scen, "done");
    if (done && !json_is_object(done))
        return err(c, "%s is not an object", "done");
    if (!done || (!json_object_get(done, "variables") && !json_object_get(done, "script") &&
                  !json_object_get(done, "nodes")))
        return warn(c, rg__asprintf("missing done"));
    return RG_OK;
}

/* data.json's info (from the game's folders and stable), or NULL when there is none or it cannot be read: the
 * variable checks are then skipped (verify_data and the missing-file scan report the problem). */
static json_t *load_info(const rg__gamectx *ctx, int *rc)
{
    char *path = rg__find_in(&ctx->dirs_stable, "data.json", rc);
    if (!path)
        return NULL;
    json_t *root = NULL;
    int r = rg__json_load_file(path, RG__JSON_MAX_SIZE, &root, NULL);
    free(path);
    if (r == RG_ENOMEM)
        *rc = r;
    json_t *info = json_is_object(root) ? json_object_get(root, "info") : NULL;
    info = json_is_object(info) ? json_incref(info) : NULL;
    json_decref(root);
    return info;
}

static int check_all(scen_check *c, const json_t *scen)
{
    int rc = check_reward_presence(c, scen);
    if (rc == RG_OK)
        rc = check_done_presence(c, scen);
    if (rc == RG_OK)
        rc = check_reward_vars(c, json_object_get(scen, "reward"));
    const json_t *rewards = json_object_get(scen, "rewards");
    size_t i;
    json_t *r;
    if (json_is_array(rewards))
        json_array_foreach(rewards, i, r) {
            if (rc != RG_OK)
                break;
            rc = check_reward_vars(c, r);
        }
    const json_t *done = json_object_get(scen, "done");
    if (rc == RG_OK && json_is_object(done))
        rc = check_done(c, done, 0);
    return rc;
}

int rg__check_scenario(const rg__gamectx *ctx, const char *scenario, rg_integration_diags *out)
{
    char *file = rg__ends_with_ci(scenario, ".json") ? rg__asprintf("%s", scenario)
                                                     : rg__asprintf("%s.json", scenario);
    if (!file)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = RG_OK;
    char *path = rg__find_in(&ctx->dirs, file, &rc);
    if (!path) {
        free(file);
        return rc;
    }
    json_t *scen = NULL;
    char *why = NULL;
    rc = rg__json_load_file(path, RG__JSON_MAX_SIZE, &scen, &why);
    scen_check c = {.path = path, .out = out};
    if (rc != RG_OK) {
        if (rc != RG_ENOMEM)
            rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "%s", why ? why : "fail decode");
    } else if (!json_is_object(scen)) {
        rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "fail decode: not a JSON object");
    } else {
        c.info = load_info(ctx, &rc);
        if (rc == RG_OK)
            rc = check_all(&c, scen);
        const char *slash = strrchr(file, '/');
        if (rc == RG_OK)
            rc = rg__reconcile(ctx, path, slash ? slash + 1 : file, &c.warnings, out);
        json_decref((json_t *)c.info);
    }
    rg__strlist_clear(&c.warnings);
    json_decref(scen);
    free(why);
    free(path);
    free(file);
    return rc;
}
