#!/usr/bin/env python3
"""Tests of check_layers.py on small made-up trees: what it allows and what it reports."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402


class CheckLayersTest(unittest.TestCase):
    def tree(self, files):
        root = tempfile.mkdtemp()
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        return root

    def test_downward_includes_pass(self):
        root = self.tree({
            "src/plan/a.h": '#include "catalog/b.h"\n#include "sql/ast.h"\n#include <vector>\n',
            "src/exec/c.cc": '#include "functions/k.h"\n#include "kernels/kernels.h"\n'
                             '#include "plan/a.h"\n'
                             '#include "arrow/type.h"\n#include "parley/connector/read.h"\n',
            "connectors/delta/d.cc": '#include "parley/connector/table.h"\n',
        })
        self.assertEqual(check_layers.violations(root), [])

    def test_upward_includes_are_reported_with_the_file_and_line(self):
        root = self.tree({
            "src/plan/a.h": '// x\n#include "exec/executor.h"\n',
            "src/sql/ast.h": '#include "parley/session.h"\n',
            "connectors/files/f.cc": '#include "plan/logical_plan.h"\n',
            "src/functions/r.cc": '#include "analysis/types.h"\n',
            "src/analysis/b.cc": '#include "functions/function_registry.h"\n'
                                 '#include "kernels/kernels.h"\n',
            "src/kernels/k.cc": '#include "functions/function_registry.h"\n',
        })
        found = check_layers.violations(root)
        self.assertEqual(len(found), 6, found)
        self.assertTrue(any(line.startswith("src/plan/a.h:2: ") and "(exec)" in line
                            for line in found), found)
        self.assertTrue(any("src/sql/ast.h:1:" in line and "(main)" in line for line in found))
        self.assertTrue(any("connectors/files/f.cc:1:" in line for line in found))
        self.assertTrue(any("src/functions/r.cc:1:" in line for line in found))
        # Analysis uses the functions' binding half, never their kernels; kernels are below it.
        self.assertTrue(any("src/analysis/b.cc:2:" in line and "(kernels)" in line
                            for line in found), found)
        self.assertTrue(any("src/kernels/k.cc:1:" in line and "(functions)" in line
                            for line in found), found)

    def test_tests_may_include_anything_and_the_engine_no_connector(self):
        root = self.tree({
            "src/plan/pushdown_test.cc": '#include "exec/executor.h"\n',
            "connectors/delta/delta_test_util.h": '#include "testing/gtest_util.h"\n',
            "src/main/procedure_commands.cc": '#include "connectors/delta/delta_table.h"\n',
        })
        found = check_layers.violations(root)
        self.assertEqual(len(found), 1, found)
        self.assertIn("src/main/procedure_commands.cc:1:", found[0])


if __name__ == "__main__":
    unittest.main()
