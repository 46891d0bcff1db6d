"""The math under the toolkit's exact answers, for any graph and any linear system: nothing here knows
a game.

* :mod:`toolkit.solve.scc`: the strongly connected components of a graph held in arrays, and the
  nodes from which play can go on for ever;
* :mod:`toolkit.solve.linear`: exact sparse rational systems (p-adic lifting, elimination as the
  fallback) and the one rational reconstruction;
* :mod:`toolkit.solve.dense`: exact integer systems made of dense diagonal blocks (block LU and lifting);
* :mod:`toolkit.solve.iterate`: interval iteration, component by component, and the choices it points to;
* :mod:`toolkit.solve.lift_kernel`: the compiled loops of the two liftings.

It imports nothing of the toolkit but ``toolkit.fast.steps``.
"""
