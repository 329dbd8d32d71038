// Command metal3calls drives an Ironic endpoint with gophercloud's bare metal client (Debian's
// golang-github-gophercloud-gophercloud-dev) the way Metal3's baremetal-operator does: enroll a node, create a port for
// each of its MAC addresses after looking the address up, read the node back, patch it, take it to manageable and
// wait, read its BIOS settings, then delete the ports and the node. It prints one line per step and exits non-zero on
// the first failure. Debian's gophercloud (0.12) predates the typed BIOS call, so that read goes through the same
// gophercloud ServiceClient (its microversion header, its error handling) that the typed calls use.
// Build in GOPATH mode against the Debian sources: GO111MODULE=off GOPATH=/usr/share/gocode go run main.go <endpoint>.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/gophercloud/gophercloud"
	"github.com/gophercloud/gophercloud/openstack/baremetal/noauth"
	"github.com/gophercloud/gophercloud/openstack/baremetal/v1/nodes"
	"github.com/gophercloud/gophercloud/openstack/baremetal/v1/ports"
)

func main() {
	if len(os.Args) != 3 {
		fail("usage: metal3calls <ironic endpoint, e.g. http://host:6385/v1> <node name>")
	}
	client, err := noauth.NewBareMetalNoAuth(noauth.EndpointOpts{IronicEndpoint: os.Args[1]})
	check("client", err)
	client.Microversion = "1.56" // what baremetal-operator asked for with this gophercloud

	node, err := nodes.Create(client, nodes.CreateOpts{
		Name:       os.Args[2],
		Driver:     "fake-hardware",
		Properties: map[string]interface{}{"cpus": 2, "memory_mb": 4096, "local_gb": 20, "cpu_arch": "x86_64"},
	}).Extract()
	check("node create", err)
	step("node create", node.UUID+" "+node.ProvisionState)

	var created []string
	for _, mac := range []string{"52:54:00:6a:00:01", "52:54:00:6a:00:02"} {
		// baremetal-operator lists by address first, so that a restart does not create the port twice.
		pages, err := ports.List(client, ports.ListOpts{Address: mac}).AllPages()
		check("port list by address", err)
		existing, err := ports.ExtractPorts(pages)
		check("port list by address", err)
		if len(existing) != 0 {
			fail("port " + mac + " already exists")
		}
		pxe := true
		port, err := ports.Create(client, ports.CreateOpts{NodeUUID: node.UUID, Address: mac, PXEEnabled: &pxe}).Extract()
		check("port create", err)
		if port.NodeUUID != node.UUID || port.Address != mac {
			fail(fmt.Sprintf("port create answered %+v", port))
		}
		created = append(created, port.UUID)
		step("port create", port.UUID+" "+port.Address)
	}
	pages, err := ports.ListDetail(client, ports.ListOpts{NodeUUID: node.UUID}).AllPages()
	check("port list of the node", err)
	listed, err := ports.ExtractPorts(pages)
	check("port list of the node", err)
	if len(listed) != 2 {
		fail(fmt.Sprintf("the node has %d ports, not 2", len(listed)))
	}
	step("port list", fmt.Sprint(len(listed)))

	node, err = nodes.Update(client, node.UUID, nodes.UpdateOpts{
		nodes.UpdateOperation{Op: nodes.AddOp, Path: "/extra/metal3", Value: "managed"},
	}).Extract()
	check("node update", err)
	if node.Extra["metal3"] != "managed" {
		fail(fmt.Sprintf("node update answered extra %v", node.Extra))
	}
	step("node update", "extra/metal3")

	check("manage", nodes.ChangeProvisionState(client, node.UUID, nodes.ProvisionStateOpts{Target: nodes.TargetManage}).ExtractErr())
	deadline := time.Now().Add(60 * time.Second)
	for {
		node, err = nodes.Get(client, node.UUID).Extract()
		check("node get", err)
		if node.ProvisionState == "manageable" {
			break
		}
		if time.Now().After(deadline) {
			fail("node is still " + node.ProvisionState + " after 60 s")
		}
		time.Sleep(500 * time.Millisecond)
	}
	step("manage", node.ProvisionState)

	var bios map[string][]struct {
		Name  string      `json:"name"`
		Value interface{} `json:"value"`
	}
	_, err = client.Get(client.ServiceURL("nodes", node.UUID, "bios"), &bios, &gophercloud.RequestOpts{OkCodes: []int{200}})
	check("bios setting list", err)
	settings, ok := bios["bios"]
	if !ok {
		fail(fmt.Sprintf("bios setting list answered %v", bios))
	}
	for _, setting := range settings {
		if setting.Name == "" {
			fail(fmt.Sprintf("bios setting without a name: %+v", setting))
		}
	}
	step("bios setting list", fmt.Sprint(len(settings)))

	for _, uuid := range created {
		check("port delete", ports.Delete(client, uuid).ExtractErr())
	}
	check("node delete", nodes.Delete(client, node.UUID).ExtractErr())
	if _, err := nodes.Get(client, node.UUID).Extract(); err == nil {
		fail("the node is still there after delete")
	} else if _, notFound := err.(gophercloud.ErrDefault404); !notFound {
		fail("node get after delete: " + err.Error())
	}
	step("delete", "ports and node gone")
	fmt.Println("ok")
}

func step(name, detail string) {
	fmt.Printf("%s: %s\n", name, detail)
}

func check(what string, err error) {
	if err != nil {
		fail(what + ": " + err.Error())
	}
}

func fail(message string) {
	fmt.Fprintln(os.Stderr, message)
	os.Exit(1)
}
