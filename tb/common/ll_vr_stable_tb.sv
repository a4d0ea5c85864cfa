// Self-test of ll_vr_stable (run by make lint with Icarus): a producer that keeps the rule,
// then one that changes its payload while stalled, then one that drops valid while
// stalled. The checker must stay quiet for the first and name the instance for the others.
`timescale 1ns / 1ps
module ll_vr_stable_tb;
  logic       clk = 1'b0, rst_n = 1'b0, valid = 1'b0, ready = 1'b0;
  logic [3:0] data = '0;
  ll_vr_stable #(.W(4)) u_chk (
    .clk_i (clk), .rst_ni (rst_n), .valid_i (valid), .ready_i (ready), .data_i (data)
  );
  always #5 clk = ~clk;
  task automatic step(input logic v, input logic r, input logic [3:0] d);
    @(negedge clk);
    valid = v; ready = r; data = d;
  endtask
  initial begin
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    $display("phase legal");
    step(1, 0, 4'd3); step(1, 0, 4'd3); step(1, 1, 4'd3); step(1, 1, 4'd4); step(0, 0, 4'd9);
    step(0, 0, 4'd0);
    $display("phase payload");
    step(1, 0, 4'd5); step(1, 0, 4'd6); step(1, 1, 4'd6);
    $display("phase valid");
    step(1, 0, 4'd7); step(0, 0, 4'd7); step(0, 0, 4'd7);
    $display("done");
    $finish;
  end
endmodule
