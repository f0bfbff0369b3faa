# ReFrame's configuration for one machine of this project's kind: a single node, no scheduler, ranks
# started by Open MPI's mpirun, more ranks than cores allowed (as scripts/mpirun does), and root
# allowed (CI runs as root). A cluster's site configuration replaces it (docs/reframe.md).
site_configuration = {
    "systems": [
        {
            "name": "workstation",
            "descr": "one machine, ranks by mpirun",
            "hostnames": [".*"],
            "modules_system": "nomod",
            "partitions": [
                {
                    "name": "default",
                    "scheduler": "local",
                    "launcher": "mpirun",
                    "environs": ["builtin"],
                    "max_jobs": 1,
                    "env_vars": [
                        ["OMPI_MCA_rmaps_base_oversubscribe", "1"],
                        ["OMPI_MCA_hwloc_base_binding_policy", "none"],
                        ["OMPI_ALLOW_RUN_AS_ROOT", "1"],
                        ["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"],
                        ["OMP_WAIT_POLICY", "passive"],
                    ],
                }
            ],
        }
    ],
    "environments": [{"name": "builtin", "cc": "cc", "cxx": "c++", "ftn": ""}],
}
