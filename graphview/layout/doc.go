// Package layout places a directed graph of sized boxes in layers
// (Sugiyama-style) and routes its edges between them. It knows nothing of
// drawing, Fyne or model formats: the input is a list of box sizes and edges,
// the output is box centres and edge polylines, so every front end (the Fyne
// widget, SVG and PNG export, headless rendering) shares one deterministic
// placement.
//
// The pipeline, per connected component:
//
//  1. cycle breaking: an iterative depth-first search reverses back edges
//     (real files can be cyclic; chains of 50k nodes must not overflow a stack);
//  2. layer assignment: longest path from the sources, then nodes with more
//     outgoing than incoming edges (weights, inputs) move down next to their
//     consumers;
//  3. long edges get one dummy vertex per layer they cross (within a budget
//     linear in the graph size; the rest are routed around the drawing);
//  4. crossing reduction: barycenter layer sweeps from vertex index order
//     (the plain baseline) and from a depth-first order, then weighted median
//     sweeps and adjacent transpositions, keeping the ordering with the
//     fewest crossings (counted exactly, Barth–Jünger–Mutzel), so the result
//     never has more crossings than the plain barycenter sweep;
//  5. coordinates: Brandes–Köpf, which aligns each vertex with a median
//     neighbour and gives long edges priority, so chains come out straight;
//  6. routes: polylines through the dummy vertices, clipped to the boxes.
//
// Components are then packed in rows. The same input always gives the same
// output: nothing depends on map iteration order or on timing.
package layout
