"""``--fix``: keep the tasks the analysis found dropped (TRF001, TRF002), with
LibCST.  ``rewrite`` is the entry point (``fix_source``) and the rewrite;
``plan`` decides where each task is kept and which sites can be fixed;
``annotations`` writes the set's annotation and imports in the file's own
typing style; ``cst_nodes`` has small helpers over LibCST nodes.  It knows
neither the command nor the pytest option."""
