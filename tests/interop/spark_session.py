"""A local Spark session for the suites that ask Spark what a statement gives: local[1], ANSI
mode, UTC, quiet (the cases fail on purpose, so nothing is logged), tuned for many small
queries (the JIT's first tier, no whole-stage code generation, one shuffle partition)."""

import os

LOG4J = """\
rootLogger.level = off
"""


def start_spark(work, app="parley-interop"):
    """A new SparkSession whose warehouse and logging configuration live under `work`."""
    from pyspark.sql import SparkSession

    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    log4j = os.path.join(work, "log4j2.properties")
    with open(log4j, "w") as f:
        f.write(LOG4J)
    java_options = f"-XX:TieredStopAtLevel=1 -Dlog4j2.configurationFile=file:{log4j}"
    return (SparkSession.builder.master("local[1]").appName(app)
            .config("spark.driver.extraJavaOptions", java_options)
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.ansi.enabled", "true")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.sql.codegen.wholeStage", "false")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.warehouse.dir", os.path.join(work, "warehouse"))
            .getOrCreate())
